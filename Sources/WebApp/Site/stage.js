// The photo at screen size with its faces outlined and numbered, and everything done to the
// boxes with a pointer: select, drag to move, corner handles to resize (about the centre, as
// the model resizes), drag on the photo to draw a new box, and the before/after divider.
import { el, $ } from './dom.js';

const MIN_BOX = 8; // display pixels: smaller drags are clicks

export class Stage {
  constructor(callbacks) {
    this.on = callbacks; // select(id, additive), clear(), move(id, dx, dy), resize(id, w, h), draw(box), split(percent)
    this.stage = $('stage');
    this.frame = $('frame');
    this.after = $('after');
    this.boxes = $('boxes');
    this.rubber = $('rubber');
    this.before = $('before');
    this.divider = $('divider');
    this.state = null;
    this.selected = new Set();
    this.comparing = false;
    this.splitPercent = 50;
    this.gesture = null;
    new ResizeObserver(() => this.layout()).observe(this.stage);
    this.frame.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.frame.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.frame.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.frame.addEventListener('pointercancel', () => this.cancelGesture());
    this.boxes.addEventListener('keydown', (e) => {
      const face = e.target.closest('.face');
      if (face && (e.key === 'Enter' || e.key === ' ')) {
        e.preventDefault();
        this.on.select(Number(face.dataset.id), e.shiftKey || e.ctrlKey || e.metaKey);
      }
    });
  }

  /** The size previews should be drawn at: the frame's longest side in device pixels. */
  get displaySide() {
    const rect = this.available();
    const side = Math.max(rect.width, rect.height) * (window.devicePixelRatio || 1);
    return Math.min(2560, Math.max(320, Math.ceil(side / 160) * 160));
  }

  available() {
    const style = getComputedStyle(this.stage);
    return {
      width: this.stage.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      height: this.stage.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom),
    };
  }

  /** Fits the frame to the stage, keeping the photo's proportions. */
  layout() {
    if (!this.state) return;
    const { width, height } = this.available();
    const scale = Math.min(width / this.state.width, height / this.state.height);
    this.frame.style.width = `${Math.max(1, Math.floor(this.state.width * scale))}px`;
    this.frame.style.height = `${Math.max(1, Math.floor(this.state.height * scale))}px`;
  }

  /** Display pixels per photo pixel. */
  get scale() { return this.frame.clientWidth / this.state.width; }

  show(state, selected) {
    const newPhoto = !this.state || this.state.photo !== state.photo;
    this.state = state;
    this.selected = new Set(selected);
    this.frame.hidden = false;
    $('empty').hidden = true;
    if (newPhoto) {
      this.after.alt = `${state.name}, with the styles chosen`;
      this.layout();
    }
    this.renderBoxes();
  }

  clear() {
    this.state = null;
    this.frame.hidden = true;
    $('empty').hidden = false;
  }

  /** Swaps in a decoded preview picture without a flash. */
  async showPicture(blobURL) {
    const image = new Image();
    image.src = blobURL;
    await image.decode();
    const old = this.after.src;
    this.after.src = blobURL;
    if (old.startsWith('blob:')) URL.revokeObjectURL(old);
  }

  renderBoxes() {
    const { state } = this;
    const focused = document.activeElement?.closest?.('.face')?.dataset.id;
    this.boxes.replaceChildren(...state.faces.map((face) => this.box(face)));
    if (focused) this.boxes.querySelector(`.face[data-id="${focused}"]`)?.focus({ preventScroll: true });
  }

  box(face) {
    const [x, y, w, h] = face.box;
    const { width, height } = this.state;
    const selected = this.selected.has(face.id);
    const words = [`Face ${face.id}`, face.label ? face.label : 'no style'];
    if (face.warnings.length) words.push(`warning: ${face.warnings.map((w) => w.message).join('; ')}`);
    const node = el('button', {
      type: 'button',
      class: ['face', face.style ? 'styled' : '', selected ? 'selected' : '', y / height < 0.06 ? 'low' : ''].join(' ').trim(),
      dataset: { id: face.id },
      'aria-pressed': selected ? 'true' : 'false',
      'aria-label': words.join(', '),
      style: `left:${(x / width) * 100}%;top:${(y / height) * 100}%;width:${(w / width) * 100}%;height:${(h / height) * 100}%`,
    },
    el('span', { class: 'tag', 'aria-hidden': 'true' }, String(face.id), face.style ? el('small', {}, face.style.filter) : null),
    face.warnings.length ? el('span', { class: 'warn', title: face.warnings.map((w) => w.message).join('\n'), 'aria-hidden': 'true' }, '!') : null,
    ...['nw', 'ne', 'sw', 'se'].map((corner) => el('span', { class: `handle ${corner}`, dataset: { corner }, 'aria-hidden': 'true' })));
    return node;
  }

  faceElement(id) { return this.boxes.querySelector(`.face[data-id="${id}"]`); }

  /** Shows a box where it will be once a move or resize lands (photo pixels). */
  placeBox(id, [x, y, w, h]) {
    const node = this.faceElement(id);
    if (!node) return;
    const { width, height } = this.state;
    Object.assign(node.style, {
      left: `${(x / width) * 100}%`, top: `${(y / height) * 100}%`, width: `${(w / width) * 100}%`, height: `${(h / height) * 100}%`,
    });
  }

  // MARK: before / after

  setComparing(on, originalURL) {
    this.comparing = on;
    this.frame.classList.toggle('comparing', on);
    this.before.hidden = !on;
    this.divider.hidden = !on;
    if (on && originalURL) this.before.querySelector('img').src = originalURL;
    this.setSplit(this.splitPercent);
  }

  setSplit(percent) {
    this.splitPercent = Math.min(100, Math.max(0, percent));
    this.before.style.clipPath = `inset(0 ${100 - this.splitPercent}% 0 0)`;
    this.divider.style.left = `${this.splitPercent}%`;
  }

  // MARK: pointer gestures

  point(event) {
    const rect = this.frame.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  pointerDown(event) {
    if (!this.state || event.button > 0) return;
    const start = this.point(event);
    if (this.comparing) {
      this.gesture = { kind: 'split' };
      this.on.split((start.x / this.frame.clientWidth) * 100);
    } else {
      const handle = event.target.closest('.handle');
      const faceNode = event.target.closest('.face');
      if (handle && faceNode) {
        const face = this.faceById(faceNode.dataset.id);
        this.gesture = { kind: 'resize', face, start };
      } else if (faceNode) {
        this.gesture = { kind: 'move', face: this.faceById(faceNode.dataset.id), start, additive: event.shiftKey || event.ctrlKey || event.metaKey };
      } else {
        this.gesture = { kind: 'draw', start };
      }
    }
    this.frame.setPointerCapture(event.pointerId);
    event.preventDefault();
    if (event.target.closest('.face')) event.target.closest('.face').focus({ preventScroll: true });
  }

  faceById(id) { return this.state.faces.find((f) => f.id === Number(id)); }

  pointerMove(event) {
    const g = this.gesture;
    if (!g) return;
    const p = this.point(event);
    const s = this.scale;
    if (g.kind === 'split') {
      this.on.split((p.x / this.frame.clientWidth) * 100);
    } else if (g.kind === 'move') {
      const dx = p.x - g.start.x, dy = p.y - g.start.y;
      if (!g.moving && Math.hypot(dx, dy) < 4) return;
      g.moving = true;
      const [x, y, w, h] = g.face.box;
      g.delta = { dx: dx / s, dy: dy / s };
      this.placeBox(g.face.id, [x + g.delta.dx, y + g.delta.dy, w, h]);
    } else if (g.kind === 'resize') {
      const [x, y, w, h] = g.face.box;
      const cx = x + w / 2, cy = y + h / 2;
      const nw = Math.max(MIN_BOX / s, 2 * Math.abs(p.x / s - cx));
      const nh = Math.max(MIN_BOX / s, 2 * Math.abs(p.y / s - cy));
      g.size = { width: nw, height: nh };
      this.placeBox(g.face.id, [cx - nw / 2, cy - nh / 2, nw, nh]);
    } else if (g.kind === 'draw') {
      const x0 = Math.min(g.start.x, p.x), y0 = Math.min(g.start.y, p.y);
      const w = Math.abs(p.x - g.start.x), h = Math.abs(p.y - g.start.y);
      g.rect = { x: x0, y: y0, w, h };
      Object.assign(this.rubber.style, { left: `${x0}px`, top: `${y0}px`, width: `${w}px`, height: `${h}px` });
      this.rubber.hidden = w < MIN_BOX && h < MIN_BOX;
    }
  }

  pointerUp(event) {
    const g = this.gesture;
    this.gesture = null;
    this.rubber.hidden = true;
    if (!g) return;
    const s = this.scale;
    if (g.kind === 'move') {
      if (g.moving && g.delta) this.on.move(g.face.id, g.delta.dx, g.delta.dy);
      else this.on.select(g.face.id, g.additive);
    } else if (g.kind === 'resize') {
      if (g.size) this.on.resize(g.face.id, g.size.width, g.size.height);
    } else if (g.kind === 'draw') {
      if (g.rect && g.rect.w >= MIN_BOX && g.rect.h >= MIN_BOX) {
        this.on.draw([g.rect.x / s, g.rect.y / s, g.rect.w / s, g.rect.h / s]);
      } else {
        this.on.clear();
      }
    }
  }

  cancelGesture() {
    this.gesture = null;
    this.rubber.hidden = true;
    if (this.state) this.renderBoxes();
  }
}
