'use strict';

const { scale: grow, label } = require('./units');
const units = require('./units');

class Rect {
  constructor(width, height) {
    this.width = width;
    this.height = height;
  }

  area() {
    return this.width * this.height;
  }

  stretched(factor) {
    return new Rect(grow(this.width, factor), units.scale(this.height, factor));
  }
}

class Square extends Rect {
  constructor(side) {
    super(side, side);
    this.kind = 'square';
  }
}

function total(shapes) {
  let sum = 0;
  for (const s of shapes) {
    sum += s.area();
  }
  return sum;
}

function describe(shape, unit) {
  const name = shape.kind || 'rect';
  return name + ': ' + label(shape.area(), unit + '2');
}

module.exports = { Rect, Square, total, describe };
