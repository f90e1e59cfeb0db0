const assert = require('assert');
const { Cart } = require('../lib');

describe('Cart', () => {
  it('refuses an item that is no string', () => {
    const cart = new Cart({ apple: 2 });
    expect(() => cart.add(3, 1)).toThrow(TypeError);
  });

  it('says what the item was', () => {
    const cart = new Cart({});
    expect(() => cart.add(null, 1)).toThrow(/item must be a string, got object/);
  });

  it('refuses to pay nothing', () => {
    const cart = new Cart({});
    assert.throws(() => cart.pay(-1), { name: 'AssertionError', message: 'amount must be positive' });
  });
});
