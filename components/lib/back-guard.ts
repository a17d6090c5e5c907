// Holds the browser's Back button while a page (the mock editor) has unsaved changes.
// The app router cannot veto a history traversal, so while armed a sentinel
// entry (same URL, Next.js's own state plus a mark) sits on top of the editor's
// entry: Back only steps off the sentinel, the page stays, and the editor asks.
// Staying pushes the sentinel again; leaving goes back once more. When the
// changes are saved or undone, or the editor leaves through a link, the sentinel
// is taken away first, so no extra entry is left for a later Back to trip on.
//
// Our popstate listener must run before the router's and stop the event for the
// steps it makes or holds, so the router never sees them. Listeners on window
// run in the order they were added (a capturing one is not run earlier here:
// measured in Chromium 156), and the router adds its own when it mounts, so
// `installBackGuard()` is called when the app's providers module loads.
//
// One module-level guard: there is one editor on a page, and a save that
// remounts the editor must finish taking its sentinel away after the old
// instance has unmounted.

const MARK = "__polymockUnsaved";

type HistoryState = Record<string, unknown> | null;
interface Entry {
  state: HistoryState;
  url: string;
}

let installed = false;
/** Called when Back stepped off the sentinel; null while disarmed. */
let onBack: (() => void) | null = null;
/** The sentinel Back stepped off, while the question is open. */
let held: Entry | null = null;
/** Our own history.back() taking the sentinel away, until its popstate. */
let popping: { top: Entry; done: () => void; promise: Promise<void> } | null = null;
/** The sentinel as last seen on top, to push again when the user stays. */
let lastSentinel: Entry | null = null;

const isSentinel = (state: unknown) => typeof state === "object" && state !== null && MARK in state;
/** The Navigation API's key of the current entry (Chromium, Safari): unlike the state, it survives the router's replaceState. */
const entryKey = () => (window as { navigation?: { currentEntry?: { key: string } | null } }).navigation?.currentEntry?.key;
/** The sentinel's entry key, where the browser has one. */
let sentinelKey: string | undefined;
/** Is the current entry our sentinel? Its mark, or (when a router write dropped the mark) its entry key. */
const onSentinel = () => isSentinel(window.history.state) || (sentinelKey !== undefined && entryKey() === sentinelKey);
const current = (): Entry => ({ state: window.history.state as HistoryState, url: window.location.href });
const pathOf = (url: string) => new URL(url, window.location.href).pathname;

function unmarked(state: HistoryState): HistoryState {
  if (!state) return state;
  const { [MARK]: _mark, ...rest } = state;
  return rest;
}

function pushSentinel(from: Entry = current()) {
  // The router's state travels along (__NA present), so its patched pushState passes this through untouched.
  window.history.pushState({ ...from.state, [MARK]: true }, "", from.url);
  sentinelKey = entryKey();
}

function onPopState(e: PopStateEvent) {
  if (popping) {
    // Our own step off the sentinel: the entry below shows what the sentinel showed (a tab may have changed its URL).
    e.stopImmediatePropagation();
    const { top, done } = popping;
    popping = null;
    window.history.replaceState(unmarked(top.state), "", top.url);
    // Changed again while the sentinel was being taken away (a remount): put it back.
    if (onBack) {
      pushSentinel();
      lastSentinel = current();
    }
    done();
    return;
  }
  if (!onBack || held || isSentinel(e.state)) return;
  // Back stepped off the sentinel: the page stays as it is and asks.
  e.stopImmediatePropagation();
  held = lastSentinel ?? current();
  onBack();
}

/** Adds the popstate listener; call it before the app router mounts (it is idle until `arm`). */
export function installBackGuard() {
  if (installed || typeof window === "undefined") return;
  window.addEventListener("popstate", onPopState, true);
  installed = true;
}

/** Starts holding Back (the changes became unsaved). */
export function arm(ask: () => void) {
  installBackGuard();
  onBack = ask;
  held = null;
  // While the sentinel is being taken away, its popstate puts it back.
  if (popping) return;
  if (!onSentinel()) pushSentinel();
  lastSentinel = current();
}

/**
 * The router replaced the sentinel (a tab change writes ?tab= with replace), which drops our mark:
 * mark it again, so it is still known as ours. Called after each URL change while armed.
 */
export function remark() {
  if (!onBack || held || popping || !lastSentinel) return;
  // Without the Navigation API, an unmarked entry on the sentinel's path is taken to be the sentinel.
  const ours = sentinelKey !== undefined ? entryKey() === sentinelKey : pathOf(window.location.href) === pathOf(lastSentinel.url);
  if (!isSentinel(window.history.state) && window.history.state && ours) {
    window.history.replaceState({ ...(window.history.state as object), [MARK]: true }, "", window.location.href);
  }
  if (isSentinel(window.history.state)) lastSentinel = current();
}

/** Stops holding Back and takes the sentinel away if it is the current entry; resolves when it is gone. */
export function disarm(): Promise<void> {
  onBack = null;
  held = null;
  lastSentinel = null;
  if (popping) return popping.promise;
  const ours = onSentinel();
  sentinelKey = undefined;
  if (!ours) return Promise.resolve();
  let done = () => {};
  const promise = new Promise<void>((resolve) => (done = resolve));
  popping = { top: current(), done, promise };
  window.history.back();
  return promise;
}

/** The user stays after Back: the sentinel goes on top again. */
export function stay() {
  if (!held) return;
  const entry = held;
  held = null;
  pushSentinel(entry);
  lastSentinel = current();
}

/** The user leaves after Back: finish the step the sentinel held. */
export function leave() {
  const entry = held;
  onBack = null;
  held = null;
  lastSentinel = null;
  sentinelKey = undefined;
  if (!entry) return;
  // One Back landed on the editor's own entry: one more reaches the page before it.
  if (pathOf(window.location.href) === pathOf(entry.url)) window.history.back();
  // A longer jump (the Back button's list) already landed elsewhere: let the router show it.
  else window.dispatchEvent(new PopStateEvent("popstate", { state: window.history.state }));
}
