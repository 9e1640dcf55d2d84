/**
 * Phone-sized windows: the channel list and the emulator panel fold behind the top bar's
 * buttons (CSS hides them at ≤ 600 px unless `.open`); one drawer open at a time.
 */
const $ = (id) => document.getElementById(id);

const DRAWERS = [
  { button: 'toggle-sidebar', panel: 'sidebar' },
  { button: 'toggle-emulator', panel: 'emulator' },
];

function setDrawer({ button, panel }, open) {
  $(button).setAttribute('aria-expanded', open ? 'true' : 'false');
  $(panel).classList.toggle('open', open);
}

export function closeDrawers() {
  for (const drawer of DRAWERS) setDrawer(drawer, false);
}

export function installDrawers() {
  for (const drawer of DRAWERS) {
    $(drawer.button).addEventListener('click', () => {
      const open = $(drawer.button).getAttribute('aria-expanded') !== 'true';
      closeDrawers();
      setDrawer(drawer, open);
    });
  }
}
