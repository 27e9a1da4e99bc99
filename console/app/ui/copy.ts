import { useState } from 'preact/hooks';

/** Puts `text` on the clipboard exactly as given, and remembers whether the browser allowed it. */
export function useCopy(text: string) {
  const [copied, setCopied] = useState<'yes' | 'no' | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return { copy: () => void copy(), copied };
}

/** The status line after a copy: done, or `refused` (how to copy by hand) when the browser said no. */
export const copyMessage = (copied: 'yes' | 'no' | undefined, refused: string) =>
  copied === 'yes' ? 'Copied to the clipboard. ' : copied === 'no' ? `${refused} ` : '';
