import { useEffect, useRef } from 'preact/hooks';

/** A modal question (the native dialog: focus stays inside, Escape cancels). */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: preact.ComponentChildren;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.open && !element.open) element.showModal();
    if (!props.open && element.open) element.close();
  }, [props.open]);
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" onCancel={(e) => (e.preventDefault(), props.onCancel())}>
      <h2 id="confirm-title">{props.title}</h2>
      {props.children}
      <div class="actions">
        <button type="button" autofocus onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
