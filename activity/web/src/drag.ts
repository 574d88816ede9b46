// Dragging with pointer events (mouse, pen and touch): a card with `data-src` is dropped on the
// nearest `data-drop` under the pointer. Cards carry `touch-action: none` (CSS), so the page still
// scrolls by touch anywhere else. A press that does not move is left to the click (a tap).

export interface DragHandlers {
  drop(src: string, target: string): void;
  started(): void;
  ended(): void;
}

const THRESHOLD = 6;

export function installDrag(root: HTMLElement, on: DragHandlers): void {
  let press: { el: HTMLElement; src: string; x: number; y: number; id: number; dx: number; dy: number } | null = null;
  let ghost: HTMLElement | null = null;
  let over: HTMLElement | null = null;
  let suppressClick = false;

  const targetAt = (x: number, y: number): HTMLElement | null => {
    const el = document.elementFromPoint(x, y) as HTMLElement | null;
    return el?.closest<HTMLElement>("[data-drop]") ?? null;
  };

  const place = (x: number, y: number): void => {
    if (!ghost || !press) return;
    ghost.style.transform = `translate(${Math.round(x - press.dx)}px, ${Math.round(y - press.dy)}px)`;
  };

  const finish = (): void => {
    ghost?.remove();
    ghost = null;
    over?.classList.remove("over");
    over = null;
    press?.el.classList.remove("dragging");
    press = null;
  };

  root.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || press) return;
    const el = (e.target as HTMLElement).closest<HTMLElement>("[data-src]");
    if (!el || !root.contains(el) || (e.target as HTMLElement).closest("select")) return;
    const r = el.getBoundingClientRect();
    press = { el, src: el.getAttribute("data-src")!, x: e.clientX, y: e.clientY, id: e.pointerId, dx: e.clientX - r.left, dy: e.clientY - r.top };
  });

  root.addEventListener("pointermove", (e) => {
    if (!press || e.pointerId !== press.id) return;
    if (!ghost) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < THRESHOLD) return;
      ghost = press.el.cloneNode(true) as HTMLElement;
      ghost.classList.add("ghost");
      ghost.removeAttribute("data-src");
      ghost.removeAttribute("data-drop");
      ghost.removeAttribute("data-card");
      ghost.removeAttribute("tabindex");
      ghost.setAttribute("aria-hidden", "true");
      const r = press.el.getBoundingClientRect();
      ghost.style.width = `${r.width}px`;
      ghost.style.height = `${r.height}px`;
      document.body.append(ghost);
      press.el.classList.add("dragging");
      try {
        press.el.setPointerCapture(press.id);
      } catch {
        /* the element may be gone */
      }
      on.started();
    }
    e.preventDefault();
    place(e.clientX, e.clientY);
    const t = targetAt(e.clientX, e.clientY);
    if (t !== over) {
      over?.classList.remove("over");
      over = t;
      over?.classList.add("over");
    }
  });

  const up = (e: PointerEvent, cancelled: boolean): void => {
    if (!press || e.pointerId !== press.id) return;
    const dragging = ghost !== null;
    const src = press.src;
    const t = dragging && !cancelled ? targetAt(e.clientX, e.clientY) : null;
    finish();
    if (dragging) {
      suppressClick = true;
      setTimeout(() => (suppressClick = false), 0);
      const key = t?.getAttribute("data-drop");
      if (key) on.drop(src, key);
      on.ended();
    }
  };
  root.addEventListener("pointerup", (e) => up(e, false));
  root.addEventListener("pointercancel", (e) => up(e, true));
  root.addEventListener(
    "click",
    (e) => {
      if (suppressClick) {
        e.stopPropagation();
        e.preventDefault();
        suppressClick = false;
      }
    },
    true,
  );
}
