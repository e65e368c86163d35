// Run by node --test after tsc: a failed check throws, and the file fails.
import { Rect, Circle, total, describe } from "../src/shapes";
import { label, scale } from "../src/units";

function expect(what: string, got: unknown, want: unknown): void {
  if (got !== want) {
    throw new Error(what + ": got " + String(got) + ", want " + String(want));
  }
}

const r = new Rect(2, 3);
expect("area", r.area(), 6);
expect("stretched", r.stretched(2).area(), 24);
expect("total", Math.round(total([r, new Circle(1)]) * 1000), 9142);
expect("describe", describe(r, "m"), "rect: 6 m2");
expect("label", label(1.234), "1.23 cm");
expect("scale", scale(2, 5), 10);
