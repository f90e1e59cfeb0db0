const { Cart } = require('shop');
const cart = new Cart({ apple: 2 });
const out = [];
function record(label, err) {
  const frame = err.stack.split('\n').find((l) => l.includes('node_modules/shop/'));
  out.push({ label, message: err.message, code: err.code || null, frame: frame.trim() });
}
for (const [label, run] of [
  ['type', () => cart.add(3, 1)],
  ['stock', () => cart.add('apple', 5)],
  ['remove', () => cart.remove('pear')],
  ['assert', () => cart.pay(-1)],
  ['format', () => cart.pay(500)],
]) {
  try { run(); } catch (err) { record(label, err); }
}
cart.ship('', (err) => record('callback', err));
cart.pay(5).catch((err) => { record('rejected', err); console.log(JSON.stringify(out)); });
