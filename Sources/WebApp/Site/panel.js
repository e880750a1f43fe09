// The style picker for the selected faces: every style as a live sample of the face, and the
// chosen style's parameters as sliders, colour pickers, menus and boxes made from the filter
// registry's descriptions (ranges, steps, defaults). Moving a control shows the change at
// once (tried out, not recorded); letting go records it as one edit.
import { el, $, shortNumber } from './dom.js';
import { url } from './api.js';

export class Panel {
  constructor(callbacks) {
    this.on = callbacks; // choose(filter), tryParameters(style), setParameters(style), applyAll(), clearStyle(), deleteFaces()
    this.filters = new Map();
    this.sampleKeys = new Map();
    $('apply-all').addEventListener('click', () => this.on.applyAll());
    $('clear-style').addEventListener('click', () => this.on.clearStyle());
    $('delete-face').addEventListener('click', () => this.on.deleteFaces());
  }

  setFilters(list) {
    this.filters = new Map(list.map((f) => [f.id, f]));
    this.buildStyleButtons();
  }

  buildStyleButtons() {
    const grid = $('styles');
    grid.replaceChildren(...[...this.filters.values()].map((filter) => {
      const button = el('button', {
        type: 'button', class: 'style', role: 'radio', 'aria-checked': 'false', dataset: { filter: filter.id },
        title: filter.judged ? `${filter.summary}\n${filter.judged.replaceAll('`', '')}` : filter.summary,
        onclick: () => this.on.choose(filter.id),
      }, el('img', { class: 'sample loading', alt: '', dataset: { filter: filter.id }, draggable: 'false' }), el('span', {}, filter.id));
      return button;
    }));
    grid.addEventListener('keydown', (event) => this.arrowKeys(event));
  }

  /** Arrow keys move between styles, as in any radio group. */
  arrowKeys(event) {
    const buttons = [...$('styles').querySelectorAll('.style')];
    const index = buttons.indexOf(document.activeElement);
    if (index < 0) return;
    const columns = Math.max(1, Math.round($('styles').clientWidth / buttons[0].offsetWidth));
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns }[event.key];
    if (!step) return;
    event.preventDefault();
    event.stopPropagation();
    buttons[Math.min(buttons.length - 1, Math.max(0, index + step))].focus();
  }

  /** The panel for `faces` (the selected ones) of photo `state`. */
  show(state, faces) {
    const heading = $('face-heading');
    const none = faces.length === 0;
    heading.textContent = none ? 'Styles' : faces.length === 1 ? `Face ${faces[0].id}` : `Faces ${faces.map((f) => f.id).join(', ')}`;
    $('face-hint').hidden = !none;
    $('styles').hidden = none;
    $('face-actions').hidden = none;
    const warnings = none ? [] : faces.flatMap((f) => f.warnings.map((w) => (faces.length > 1 ? `face ${f.id}: ` : '') + w.message));
    $('face-warnings').replaceChildren(...warnings.map((w) => el('li', {}, w)));
    const shared = this.sharedStyle(faces);
    for (const button of $('styles').querySelectorAll('.style')) {
      const on = !!shared && button.dataset.filter === shared.filter;
      button.setAttribute('aria-checked', on ? 'true' : 'false');
      button.tabIndex = on || (!shared && button === $('styles').firstElementChild) ? 0 : -1;
    }
    if (!none) this.loadSamples(state, faces[0]);
    this.renderParameters(shared);
  }

  /** The style every selected face has, if they share one (else null). */
  sharedStyle(faces) {
    if (!faces.length || faces.some((f) => !f.style)) return null;
    const first = JSON.stringify(faces[0].style);
    return faces.every((f) => JSON.stringify(f.style) === first) ? faces[0].style : null;
  }

  /** Each style drawn on the face (its own parameters for its own style), reloaded only when
   * the face, its box or its style changed. */
  loadSamples(state, face) {
    for (const img of $('styles').querySelectorAll('img.sample')) {
      const filter = img.dataset.filter;
      const style = face.style && face.style.filter === filter ? face.style : { filter };
      const key = JSON.stringify([state.photo, face.id, face.box, style]);
      if (this.sampleKeys.get(filter) === key) continue;
      this.sampleKeys.set(filter, key);
      img.classList.add('loading');
      img.onload = () => img.classList.remove('loading');
      img.onerror = () => img.classList.remove('loading');
      img.src = state.kind === 'clip'
        ? url('/api/clip/sample', { clip: state.photo, track: face.id, style: JSON.stringify(style), side: 176 })
        : url('/api/sample', { photo: state.photo, face: face.id, style: JSON.stringify(style), side: 176 });
    }
  }

  forgetSamples() { this.sampleKeys.clear(); }

  renderParameters(style) {
    const box = $('params');
    const key = JSON.stringify(style);
    if (key === this.parametersKey) return;
    this.parametersKey = key;
    const focused = box.contains(document.activeElement) ? document.activeElement.id : null;
    const filter = style && this.filters.get(style.filter);
    if (!filter || !filter.parameters.length) { box.replaceChildren(); return; }
    const values = { ...style.parameters };
    const current = (p) => (p.id in values ? values[p.id] : p.default);
    const styleWith = (id, value) => ({ filter: filter.id, parameters: { ...values, [id]: value } });
    // Files and pixel positions (the chroma key's picture, pick, offset) are set at the prompt.
    const rows = filter.parameters.filter((p) => p.kind !== 'path' && p.kind !== 'point').map((p) => {
      const id = `param-${p.id}`;
      const label = el('label', { for: id, title: p.summary }, el('span', {}, p.id));
      let control;
      if (p.kind === 'number' || p.kind === 'integer') {
        const scale = sliderScale(p);
        const output = el('output', { for: id }, scale.text(Number(current(p))));
        label.append(output);
        control = el('input', {
          type: 'range', id, min: scale.min, max: scale.max, step: scale.step, value: scale.position(Number(current(p))),
          'aria-describedby': `${id}-help`, 'aria-valuetext': scale.text(Number(current(p))),
          dataset: { scale: p.scale || 'linear' },
          oninput: (e) => {
            const value = scale.value(Number(e.target.value));
            output.textContent = scale.text(value);
            e.target.setAttribute('aria-valuetext', scale.text(value));
            this.on.tryParameters(styleWith(p.id, value));
          },
          onchange: (e) => this.on.setParameters(styleWith(p.id, scale.value(Number(e.target.value)))),
        });
      } else if (p.kind === 'colour') {
        control = el('input', {
          type: 'color', id, value: current(p),
          oninput: (e) => this.on.tryParameters(styleWith(p.id, e.target.value)),
          onchange: (e) => this.on.setParameters(styleWith(p.id, e.target.value)),
        });
        return el('div', { class: 'param' }, el('div', { class: 'inline' }, label, control), help(p, id));
      } else if (p.kind === 'flag') {
        control = el('input', { type: 'checkbox', id, checked: current(p) === true, onchange: (e) => this.on.setParameters(styleWith(p.id, e.target.checked)) });
        return el('div', { class: 'param' }, el('div', { class: 'inline' }, label, control), help(p, id));
      } else if (p.kind === 'choice') {
        control = el('select', { id, onchange: (e) => this.on.setParameters(styleWith(p.id, e.target.value)) },
          p.options.map((o) => el('option', { value: o, selected: o === current(p) }, o)));
        return el('div', { class: 'param' }, el('div', { class: 'inline' }, label, control), help(p, id));
      } else if (p.kind === 'choices') {
        const chosen = new Set(String(current(p)).split(',').filter(Boolean));
        const boxes = p.options.map((o) => el('label', {}, el('input', {
          type: 'checkbox', value: o, checked: chosen.has(o),
          onchange: (e) => {
            const picked = [...e.target.closest('.choices').querySelectorAll('input:checked')].map((i) => i.value);
            this.on.setParameters(styleWith(p.id, picked.join(',')));
          },
        }), ` ${o}`));
        return el('div', { class: 'param', role: 'group', 'aria-label': p.id }, el('span', { title: p.summary }, p.id), el('div', { class: 'choices' }, boxes), help(p, id));
      }
      return el('div', { class: 'param' }, label, control, help(p, id));
    });
    const changed = Object.keys(values).length > 0;
    rows.push(el('div', { class: 'row' }, el('button', {
      type: 'button', class: 'reset', disabled: !changed,
      onclick: () => this.on.setParameters({ filter: filter.id }),
    }, 'Reset to defaults')));
    box.replaceChildren(...rows);
    if (focused) document.getElementById(focused)?.focus();
  }
}

// How a slider's positions map to a parameter's values. Linear: the value itself. Logarithmic
// (p.scale === 'log', sizes and strengths spanning a factor of 5 or more): 1000 positions, each
// stretch multiplying the value by the same factor, values kept to three significant digits.
export function sliderScale(p) {
  if (p.scale !== 'log') {
    return { min: p.min, max: p.max, step: p.step, position: (v) => v, value: (x) => x, text: (v) => shortNumber(v) };
  }
  const span = Math.log(p.max / p.min);
  const clamp = (v) => Math.min(p.max, Math.max(p.min, v));
  return {
    min: 0, max: 1000, step: 1,
    position: (v) => Math.round((Math.log(clamp(v) / p.min) / span) * 1000),
    value: (x) => clamp(Number((p.min * Math.exp((x / 1000) * span)).toPrecision(3))),
    text: (v) => String(Number(Number(v).toPrecision(3))),
  };
}

function help(p, id) {
  return el('p', { class: 'hint small', id: `${id}-help` }, p.summary);
}
