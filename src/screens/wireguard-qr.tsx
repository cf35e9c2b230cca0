/** The configuration as a QR code for the WireGuard phone app: its own chunk, loaded only when a configuration is shown. */
import { QRCodeSVG } from 'qrcode.react';

export default function WireguardQr({ config }: { config: string }) {
  // White quiet zone on both colour schemes: phone cameras read dark modules on light ground.
  return (
    <QRCodeSVG value={config} size={232} marginSize={4} level="M" bgColor="#ffffff" fgColor="#000000" role="img" aria-label="QR code of the WireGuard configuration" data-testid="wireguard-qr" />
  );
}
