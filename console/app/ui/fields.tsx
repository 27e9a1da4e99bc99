import { useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { asProblem } from '../use-load.js';
import { fieldProblems } from './human-words.js';

/**
 * The fields of one form that need the person's attention: the required ones left empty (checked
 * in the browser, before anything is sent) and the ones the API refused (named by its hint).
 */
export function useFieldProblems() {
  const [problems, setProblems] = useState<Record<string, string>>({});
  return {
    problems,
    /** Marks the empty required fields; true when there are none, and the form may be sent. */
    checkRequired(form: HTMLFormElement): boolean {
      const empty: Record<string, string> = {};
      for (const element of Array.from(form.elements)) {
        // A group of checkboxes of which one at least is needed says so with data-required.
        if (element instanceof HTMLFieldSetElement && element.dataset.required !== undefined) {
          if (!element.querySelector('input:checked')) empty[element.name] = 'Choose at least one.';
          continue;
        }
        if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) continue;
        if (element.required && element.value.trim() === '') empty[element.name] = 'This is required.';
      }
      setProblems(empty);
      const first = Object.keys(empty)[0];
      if (first) focusable(form, first)?.focus();
      return first === undefined;
    },
    fromProblem(problem: ApiProblem) {
      setProblems(fieldProblems(problem));
    },
    attributes(name: string) {
      return problems[name]
        ? { 'aria-invalid': 'true' as const, 'aria-describedby': `${name}-problem` }
        : { 'aria-invalid': undefined, 'aria-describedby': undefined };
    },
  };
}

/** The field named `name`, or the first checkbox of a group (a fieldset itself takes no focus). */
const focusable = (form: HTMLFormElement, name: string) => {
  const named = form.elements.namedItem(name);
  const element = named instanceof RadioNodeList ? named[0] : named;
  return element instanceof HTMLFieldSetElement
    ? element.querySelector<HTMLElement>('input')
    : (element as HTMLElement | null | undefined);
};

export type FieldProblems = ReturnType<typeof useFieldProblems>;

/** The problem of one field, below it (referenced by the field's aria-describedby). */
export function FieldError({ fields, name }: { fields: FieldProblems; name: string }) {
  const text = fields.problems[name];
  return text ? (
    <span class="field-error" id={`${name}-problem`}>
      {text}
    </span>
  ) : null;
}

/**
 * A form's submission: its empty required fields marked first (nothing is sent then), `send` with
 * the form's data, and what the API refused as the form's problem with its fields marked.
 */
export function useFormSubmit(send: (form: FormData, element: HTMLFormElement) => Promise<void>) {
  const [problem, setProblem] = useState<ApiProblem>();
  const [busy, setBusy] = useState(false);
  const fields = useFieldProblems();
  const submit = async (element: HTMLFormElement) => {
    setProblem(undefined);
    if (!fields.checkRequired(element)) return;
    setBusy(true);
    try {
      await send(new FormData(element), element);
    } catch (error) {
      const refused = asProblem(error);
      fields.fromProblem(refused);
      setProblem(refused);
    } finally {
      setBusy(false);
    }
  };
  return {
    problem,
    busy,
    fields,
    onSubmit: (event: SubmitEvent) => {
      event.preventDefault();
      void submit(event.currentTarget as HTMLFormElement);
    },
  };
}
