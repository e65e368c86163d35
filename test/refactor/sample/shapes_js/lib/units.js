'use strict';

const UNIT = 'cm';

function scale(value, factor) {
  return value * factor;
}

function label(value, unit = UNIT) {
  const rounded = Math.round(value * 100) / 100;
  return rounded + ' ' + unit;
}

module.exports = { UNIT, scale, label };
