'use strict';
const util = require('util');
const assert = require('assert');
const { ShopError, OutOfStock, LegacyError } = require('./errors');

class Cart {
  constructor(stock) {
    this.stock = stock;
    this.items = [];
  }
  add(item, count) {
    if (typeof item !== 'string') {
      throw new TypeError('item must be a string, got ' + typeof item);
    }
    const left = this.stock[item] || 0;
    if (count > left) {
      throw new OutOfStock(item, left);
    }
    this.items.push([item, count]);
  }
  remove(item) {
    const found = this.items.findIndex(([name]) => name === item);
    if (found >= 0) return this.items.splice(found, 1);
    const err = new Error(`no ${item} in the cart`);
    err.code = 'ENOTINCART';
    throw err;
  }
  pay(amount) {
    assert(amount > 0, 'amount must be positive');
    const message = util.format('cannot pay %d with %s', amount, 'cash');
    if (amount > 100) throw new ShopError(message, 'ETOOMUCH');
    return Promise.reject(new LegacyError('payments are closed'));
  }
  ship(address, callback) {
    if (!address) {
      callback(new RangeError("an address is required"));
      return;
    }
    callback(null);
  }
}
module.exports = { Cart };
