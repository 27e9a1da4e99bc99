import type { ApiProblem } from '@social-network/sdk';

/**
 * The API's error in words for the person at the console. The API's own message and hint are
 * written for programs (Retry-After, field paths such as `body.name`); the person gets what to do.
 */
export interface HumanProblem {
  message: string;
  hint?: string;
}

/** A field path as the API writes it (`body.name`, `query.limit`), without the request part. */
const withoutParts = (text: string) => text.replace(/\b(?:body|query|path|header)\.(?=[\w-])/g, '');

/** Ends with a full stop; `capital` also starts it with a capital (not for a field name that leads). */
const sentence = (text: string, capital = false) => {
  const trimmed = text.trim();
  const started = capital ? trimmed.charAt(0).toUpperCase() + trimmed.slice(1) : trimmed;
  return /[.!?]$/.test(started) ? started : `${started}.`;
};

const waitFor = (seconds: number) => {
  if (seconds < 90) return `${seconds} seconds`;
  if (seconds < 90 * 60) return `about ${Math.ceil(seconds / 60)} minutes`;
  return `about ${Math.ceil(seconds / 3600)} hours`;
};

export function inHumanWords(problem: ApiProblem): HumanProblem {
  if (problem.code === 'rate_limited') {
    const seconds = Number(/(\d+)\s*s\b/.exec(problem.message)?.[1]);
    return {
      message: Number.isFinite(seconds)
        ? `Too many attempts in a short time. Try again in ${waitFor(seconds)}.`
        : 'Too many attempts in a short time. Try again in a few minutes.',
    };
  }
  if (problem.code === 'network_error' || problem.status === 0)
    return { message: 'The console could not reach the API. Check your connection, or that the server runs.' };
  if (problem.code === 'invalid_request')
    return {
      message: sentence(withoutParts(problem.message).replace(/^Invalid (\S+?)\.?$/, '$1 is not valid')),
      hint: problem.hint
        ? problem.hint
            .split('; ')
            .map((part) => sentence(withoutParts(part)))
            .join(' ')
        : undefined,
    };
  return { message: problem.message, hint: problem.hint };
}

/** The fields an invalid_request names, each with its rule in words (`name` → "Must not be empty."). */
export function fieldProblems(problem: ApiProblem): Record<string, string> {
  if (problem.code !== 'invalid_request' || !problem.hint) return {};
  const found: Record<string, string> = {};
  for (const part of problem.hint.split('; ')) {
    const match = /^body\.([\w]+)(?:\.[\w.]+)?(?::\s*| )(.*)$/.exec(part.trim());
    if (match && !found[match[1]!])
      found[match[1]!] = sentence(match[2]!.replace(/^is required$/, 'This is required'), true);
  }
  return found;
}
