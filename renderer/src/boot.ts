import { connectOnce } from './api/connect';
import { useDiffStore } from './stores/diffStore';
import { useLiveStore } from './stores/liveStore';
import { useRunViewStore } from './stores/runViewStore';
import { useUiStore } from './stores/uiStore';

/** A deep link to a run view: its code, log and diff are fetched at once, side by side, not one after another. */
function preloadRunView(): void {
  const { view, repo, run, tab, range } = useUiStore.getState().route;
  if (view !== 'run' || !repo || !run) return;
  void import('./components/run/RunScreen');
  useLiveStore.getState().follow(run);
  // The diff is asked for first: its rows paint as soon as it arrives, beside the timeline; Monaco comes after.
  if (tab === 'changes') {
    void import('./components/run/ChangesTab');
    void useDiffStore.getState().load(repo, run, range);
  }
  void useRunViewStore.getState().open(repo, run);
}

/** Connects and starts reading what the URL points at before React's first render. */
let booted = false;

export function boot(): void {
  if (booted) return;
  booted = true;
  connectOnce();
  useUiStore.getState().syncFromLocation(window.location.search);
  preloadRunView();
}
