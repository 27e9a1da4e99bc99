import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { asProblem } from '../use-load.js';

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

/**
 * An action on one item of a list that a ConfirmDialog asks about first (revoke, disconnect): the
 * item being asked about, then `run` on confirmation, which answers what it did in a sentence;
 * the API's refusal otherwise.
 */
export function useConfirmedAction<T>(run: (item: T) => Promise<string>) {
  const [asking, setAsking] = useState<T>();
  const [done, setDone] = useState<string>();
  const [problem, setProblem] = useState<ApiProblem>();
  return {
    asking,
    done,
    problem,
    ask: (item: T) => (setDone(undefined), setAsking(item)),
    cancel: () => setAsking(undefined),
    confirm: async () => {
      const item = asking;
      setAsking(undefined);
      setProblem(undefined);
      if (item === undefined) return;
      try {
        setDone(await run(item));
      } catch (error) {
        setProblem(asProblem(error));
      }
    },
  };
}
