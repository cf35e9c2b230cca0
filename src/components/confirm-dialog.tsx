import type { ReactNode } from 'react';
import { Modal } from '@mantine/core';
import longText from './long-text.module.css';

/**
 * A modal confirmation built from Mantine's parts so that it stays accessible: the header is a plain
 * element (a <header> inside role="dialog" would count as a second page banner) and the close button has
 * a name.
 */
export function ConfirmDialog({
  opened,
  onClose,
  title,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  return (
    // 30rem: two buttons such as "Keep Auto-Renewal" and "Turn Off Auto-Renewal" share a row (issue 34).
    <Modal.Root opened={opened} onClose={onClose} centered size="30rem">
      <Modal.Overlay />
      <Modal.Content>
        <Modal.Header component="div">
          <Modal.Title fw={700}>{title}</Modal.Title>
          <Modal.CloseButton aria-label="Close dialog" />
        </Modal.Header>
        <Modal.Body className={longText.wrap}>{children}</Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
