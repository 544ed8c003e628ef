/**
 * Messages to the user (spec §8): a toast on in-app pages, a notification (corner card with a title)
 * elsewhere. Default duration 3000 ms (spec §9). A tiny store the `<Messages/>` component renders.
 */

export const MESSAGE_DURATION_MS = 3000;

export type MessageType = 'success' | 'error' | 'warning' | 'info';

export interface Message {
  id: number;
  text: string;
  type: MessageType;
  /** 'toast' on in-app pages, 'notification' elsewhere. */
  style: 'toast' | 'notification';
  duration: number;
}

type Listener = (messages: readonly Message[]) => void;

let messages: Message[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

/** Pages outside the app shell (home, login, register) show notifications; the rest toasts. */
export function messageStyleFor(pathname: string): 'toast' | 'notification' {
  const p = pathname.replace(/^\/capture/, '') || '/';
  return /^\/(home|login|register)?\/?$/.test(p) ? 'notification' : 'toast';
}

function emit(): void {
  for (const l of listeners) l(messages);
}

export function showMessage(text: string, opts: { type?: MessageType; duration?: number } = {}): number {
  const id = nextId++;
  // The same text already on screen is not stacked again (several failing calls at once).
  if (messages.some((m) => m.text === text)) return id;
  const msg: Message = {
    id,
    text,
    type: opts.type ?? 'info',
    style: messageStyleFor(typeof location === 'undefined' ? '/' : location.pathname),
    duration: opts.duration ?? MESSAGE_DURATION_MS,
  };
  messages = [...messages, msg];
  emit();
  if (msg.duration > 0) setTimeout(() => dismissMessage(id), msg.duration);
  return id;
}

export function dismissMessage(id: number): void {
  const before = messages.length;
  messages = messages.filter((m) => m.id !== id);
  if (messages.length !== before) emit();
}

export function subscribeMessages(l: Listener): () => void {
  listeners.add(l);
  l(messages);
  return () => listeners.delete(l);
}

export const currentMessages = (): readonly Message[] => messages;

export const toast = {
  success: (text: string) => showMessage(text, { type: 'success' }),
  error: (text: string) => showMessage(text, { type: 'error' }),
  warning: (text: string) => showMessage(text, { type: 'warning' }),
  info: (text: string) => showMessage(text, { type: 'info' }),
};
