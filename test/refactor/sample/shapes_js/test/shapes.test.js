'use strict';

const test = require('node:test');
const assert = require('node:assert');
const shapes = require('../lib/shapes');
const { label, scale } = require('../lib/units');

test('area and stretch', () => {
  const r = new shapes.Rect(2, 3);
  assert.strictEqual(r.area(), 6);
  assert.strictEqual(r.stretched(2).area(), 24);
});

test('total and describe', () => {
  const sq = new shapes.Square(2);
  assert.strictEqual(shapes.total([sq, new shapes.Rect(1, 1)]), 5);
  assert.strictEqual(shapes.describe(sq, 'm'), 'square: 4 m2');
});

test('units', () => {
  assert.strictEqual(label(1.234), '1.23 cm');
  assert.strictEqual(scale(2, 5), 10);
});
