import { List, ThemeIcon, type MantineColor } from '@mantine/core';
import { Icon } from './icons';

/** A list whose items each carry a check mark: plan features, next steps, reasons to subscribe. */
export function CheckList({ items, color = 'green' }: { items: readonly string[]; color?: MantineColor }) {
  return (
    <List
      mt="lg"
      spacing="xs"
      icon={
        <ThemeIcon size={20} radius="xl" color={color}>
          <Icon name="check" size={14} />
        </ThemeIcon>
      }
    >
      {items.map((item) => (
        <List.Item key={item}>{item}</List.Item>
      ))}
    </List>
  );
}
