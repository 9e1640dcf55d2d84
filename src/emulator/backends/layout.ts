import { badRequest } from '../errors';
import { LAYOUT_TYPES, type Layout, type Session } from '../state/model';
import { Fields } from '../validate';

const SCREENSHARE_TYPES = LAYOUT_TYPES.filter((t) => t !== 'custom');

/** Reads a layout object and enforces layout rules 1–3 (shape, stylesheet, screenshareType). */
export function parseLayout(value: unknown): Layout {
  const fields = Fields.of(value, 'layout');
  const type = fields.oneOf('type', LAYOUT_TYPES);
  if (type === undefined) throw badRequest("Invalid layout: 'type' is required");
  const stylesheet = fields.string('stylesheet');
  const screenshareType = fields.oneOf('screenshareType', SCREENSHARE_TYPES);
  if (stylesheet !== undefined && type !== 'custom') {
    throw badRequest("Invalid layout: 'stylesheet' is allowed only with type 'custom'");
  }
  if (type === 'custom' && (stylesheet === undefined || stylesheet.trim() === '')) {
    throw badRequest("Invalid layout: type 'custom' needs a 'stylesheet'");
  }
  if (screenshareType !== undefined && type !== 'bestFit') {
    throw badRequest("Invalid layout: 'screenshareType' needs type 'bestFit' and no stylesheet");
  }
  const layout: Layout = { type };
  if (stylesheet !== undefined) layout.stylesheet = stylesheet;
  if (screenshareType !== undefined) layout.screenshareType = screenshareType;
  return layout;
}

/** Layout rule 5: a layout other than best fit needs layout classes on the session's streams. */
export function checkLayoutClasses(layout: Layout | undefined, session: Session): void {
  if (!layout || layout.type === 'bestFit') return;
  const classed = [...session.streams.values()].some((s) => s.layoutClassList.length > 0);
  if (!classed) {
    throw badRequest(`Invalid layout: type '${layout.type}' needs layout classes assigned to the session's streams`);
  }
}
