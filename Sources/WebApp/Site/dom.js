// Small DOM helpers shared by the modules.

/** `el('button', {class: 'x', onclick: f}, 'text', child)` */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'class') node.className = value;
    // Through the CSSOM: the page's Content-Security-Policy refuses inline style attributes.
    else if (key === 'style') node.style.cssText = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (value === true) node.setAttribute(key, '');
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const $ = (id) => document.getElementById(id);

let toastTimer = 0;
/** A message at the bottom of the page for a few seconds (errors stay longer). */
export function toast(message, { error = false, seconds } = {}) {
  const box = $('toast');
  box.textContent = message;
  box.classList.toggle('error', error);
  box.setAttribute('role', error ? 'alert' : 'status');
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, (seconds ?? (error ? 8 : 3.5)) * 1000);
}

/** Rounds for display: at most `digits` decimals, no trailing zeros. */
export function shortNumber(value, digits = 3) {
  return Number(value.toFixed(digits)).toString();
}
