'use strict';
class ShopError extends Error {
  constructor(message, code) {
    super(message);
    this.name = 'ShopError';
    this.code = code;
  }
}
class OutOfStock extends ShopError {
  constructor(item, left) {
    super(`only ${left} of ${item} left`, 'ESTOCK');
    this.name = 'OutOfStock';
  }
}
function LegacyError(message) {
  Error.call(this);
  Error.captureStackTrace(this, LegacyError);
  this.name = 'LegacyError';
  this.message = message;
}
LegacyError.prototype = Object.create(Error.prototype);
module.exports = { ShopError, OutOfStock, LegacyError };
