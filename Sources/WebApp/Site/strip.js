// The strip of photos: every photo in the served folders as a thumbnail, plus adding more by
// the file picker or by dropping files anywhere on the page.
import { el, $ } from './dom.js';
import { url } from './api.js';

export class Strip {
  constructor(callbacks) {
    this.on = callbacks; // open(id), upload(files)
    this.photos = [];
    this.current = null;
    $('add-photos').addEventListener('click', () => $('file-input').click());
    $('file-input').addEventListener('change', (e) => {
      const files = [...e.target.files];
      e.target.value = '';
      if (files.length) this.on.upload(files);
    });
    let depth = 0;
    const hasFiles = (e) => [...(e.dataTransfer?.types || [])].includes('Files');
    window.addEventListener('dragenter', (e) => { if (hasFiles(e)) { depth += 1; $('drop').hidden = false; } });
    window.addEventListener('dragleave', (e) => { if (hasFiles(e) && --depth <= 0) { depth = 0; $('drop').hidden = true; } });
    window.addEventListener('dragover', (e) => { if (hasFiles(e)) e.preventDefault(); });
    window.addEventListener('drop', (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      $('drop').hidden = true;
      const files = [...e.dataTransfer.files];
      if (files.length) this.on.upload(files);
    });
  }

  show(photos) {
    this.photos = photos;
    $('thumbs').replaceChildren(...photos.map((photo) => el('li', {}, el('button', {
      type: 'button', class: 'thumb', dataset: { id: photo.id }, title: photo.id,
      'aria-label': `${photo.kind === 'clip' ? `Clip ${photo.name}, ${lengthText(photo.duration)}` : photo.name} in ${photo.folder}${photo.edited ? ', edited' : ''}`,
      'aria-current': photo.id === this.current ? 'true' : 'false',
      onclick: () => this.on.open(photo.id),
    },
    el('img', {
      src: url('/api/thumbnail', { photo: photo.id }), alt: '', loading: 'lazy', draggable: 'false',
      onerror: (e) => { e.target.closest('.thumb').classList.add('broken'); e.target.remove(); },
    }),
    photo.kind === 'clip' ? el('span', { class: 'length', title: `clip, ${lengthText(photo.duration)}` }, filmIcon(), lengthText(photo.duration)) : null,
    photo.edited ? el('span', { class: 'dot', title: 'edited' }) : null,
    el('span', { class: 'name' }, photo.name)))));
    this.highlight(this.current);
  }

  highlight(id) {
    this.current = id;
    for (const button of $('thumbs').querySelectorAll('.thumb')) {
      const on = button.dataset.id === id;
      button.setAttribute('aria-current', on ? 'true' : 'false');
      if (on) button.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  }

  markEdited(id) {
    const photo = this.photos.find((p) => p.id === id);
    if (!photo || photo.edited) return;
    photo.edited = true;
    const button = $('thumbs').querySelector(`.thumb[data-id="${CSS.escape(id)}"]`);
    if (button && !button.querySelector('.dot')) button.append(el('span', { class: 'dot', title: 'edited' }));
  }
}

/** A clip's length as the strip shows it: "0:06", "1:15". */
export function lengthText(seconds) {
  if (seconds === null || seconds === undefined) return 'clip';
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function filmIcon() {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', 'M6 4v16l14-8z');
  svg.append(path);
  return svg;
}
