// The reason's field: its styles with it, in the console's chunk.
import '@mantine/core/styles/Input.layer.css';
import { Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { ACTION_TARGETS, FEATURE_ROLES, mayUse, REASON_LIMITS, STAFF_ACTIONS, type StaffActionName, type StaffRole } from '../../contract/staff';
import { ConfirmDialog } from '../components/confirm-dialog';
import classes from './staff-console.module.css';
import { ACTION_LABELS, ACTION_WARNINGS } from './staff-texts';

export interface StaffDangerZoneProps {
  role: StaffRole;
  /** Whether the account is disabled: it offers "Enable account" instead of "Disable account". */
  disabled: boolean;
  onAction: (action: StaffActionName) => void;
}

/** The account's actions (contract/staff.ts's, on the account), those the role may use, in the contract's order. */
export function StaffDangerZone({ role, disabled, onAction }: StaffDangerZoneProps) {
  const shown = STAFF_ACTIONS.filter((action) => ACTION_TARGETS[action] === 'account' && mayUse(role, action) && action !== (disabled ? 'disable' : 'enable'));
  // What the role may not do, by the lowest role that may: "Needs the admin role: Refund, …".
  const withheld = STAFF_ACTIONS.filter((action) => ACTION_TARGETS[action] === 'account' && !mayUse(role, action));
  const needs = [...new Set(withheld.map((action) => FEATURE_ROLES[action][0]))].map(
    (needed) => `Needs the ${needed} role: ${withheld.filter((action) => FEATURE_ROLES[action][0] === needed).map((action) => ACTION_LABELS[action]).join(', ')}.`,
  );
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="staff-danger" className={classes.dangerCard}>
      <Title order={2} size="h4" id="staff-danger" className={classes.dangerText} mb="sm">
        Danger zone
      </Title>
      <Group gap="sm" wrap="wrap">
        {shown.map((action) => (
          <Button key={action} variant="outline" color="red.8" className={classes.dangerButton} onClick={() => onAction(action)}>
            {ACTION_LABELS[action]}
          </Button>
        ))}
      </Group>
      {needs.map((line) => (
        <Text key={line} size="sm" mt="sm" c="dimmed">
          {line}
        </Text>
      ))}
    </Card>
  );
}

/** The confirmation of one action, while it is open. */
export interface StaffActionDialogProps {
  action: StaffActionName;
  /** The device's name, for revoke_device. */
  deviceName: string | null;
  reason: string;
  error: string | null;
  calling: boolean;
  onReason: (reason: string) => void;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Every action asks for a reason (5 to 500 characters) before it calls. */
export function StaffActionDialog({ action, deviceName, reason, error, calling, onReason, onConfirm, onCancel }: StaffActionDialogProps) {
  const length = reason.trim().length;
  const valid = length >= REASON_LIMITS.min && length <= REASON_LIMITS.max;
  return (
    <ConfirmDialog opened onClose={onCancel} title={`${ACTION_LABELS[action]}${deviceName ? `: ${deviceName}` : ''}?`}>
      <Stack>
        <Text size="sm">{ACTION_WARNINGS[action]}</Text>
        <Textarea
          label="Reason"
          description={`Written to the audit trail (${REASON_LIMITS.min} to ${REASON_LIMITS.max} characters). The customer never sees it.`}
          value={reason}
          onChange={(event) => onReason(event.currentTarget.value)}
          required
          rows={3}
          maxLength={REASON_LIMITS.max}
          data-autofocus
        />
        {error && (
          <Text className={classes.dangerText} size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={calling}>
            Cancel
          </Button>
          <Button color="red.8" onClick={onConfirm} disabled={!valid} loading={calling}>
            Confirm: {ACTION_LABELS[action]}
          </Button>
        </Group>
      </Stack>
    </ConfirmDialog>
  );
}
