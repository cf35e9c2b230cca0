/**
 * How Linux, routers and any device without our app connect (issue 45 item 5): a WireGuard configuration from
 * the account page. Said the same on /download and in the FAQ.
 */
import { brand } from '../config/brand';

export const WIREGUARD_ELSEWHERE_TITLE = 'Linux, routers and other devices';

export const WIREGUARD_ELSEWHERE = `Use WireGuard: on your account page, under Devices, choose "Add a device" and import the configuration it makes (on Linux with wg-quick, on a router in its WireGuard settings). Each configuration counts as one of your ${brand.deviceLimit} devices.`;
