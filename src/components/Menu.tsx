import type { ReactNode } from 'react';

/*
 * A drop-down menu without JavaScript: the panel is an HTML popover opened by its button, so
 * the browser closes it on Escape and on a click outside, keeps one menu open at a time, and
 * gives focus back to the button. CSS anchor positioning (base.css, .menu-panel) puts it next
 * to its button and flips it to stay on screen; a browser without anchor positioning shows it
 * centred.
 */

export type MenuPlacement = 'below-start' | 'below-end' | 'below-stretch' | 'above-end';

export function Menu({
  id,
  label,
  button,
  buttonClassName,
  placement,
  panelClassName,
  menuName,
  children,
}: {
  /** Unique on the page: names the panel and the anchor. */
  id: string;
  /** The button's accessible name. */
  label: string;
  button: ReactNode;
  buttonClassName: string;
  placement: MenuPlacement;
  panelClassName: string;
  /** data-menu, for tests and styles. */
  menuName: string;
  children: ReactNode;
}) {
  const panelId = `menu-${id}`;
  const anchor = `--menu-${id}`;
  return (
    <>
      <button type="button" popoverTarget={panelId} aria-label={label} className={buttonClassName} style={{ anchorName: anchor }} data-menu-button={menuName}>
        {button}
      </button>
      <div
        id={panelId}
        popover="auto"
        data-menu={menuName}
        data-placement={placement}
        className={`menu-panel ${panelClassName}`}
        style={{ positionAnchor: anchor }}
      >
        {children}
      </div>
    </>
  );
}
