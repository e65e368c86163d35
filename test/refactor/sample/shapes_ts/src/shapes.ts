import { scale as grow, label } from "./units";
import * as units from "./units";

export interface Shape {
  name: string;
  area(): number;
}

export class Rect implements Shape {
  name: string = "rect";
  private width: number;
  private height: number;

  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
  }

  area(): number {
    return this.width * this.height;
  }

  stretched(factor: number): Rect {
    return new Rect(grow(this.width, factor), units.scale(this.height, factor));
  }
}

export class Circle implements Shape {
  name: string = "circle";
  constructor(public radius: number) {}

  area(): number {
    const square = this.radius * this.radius;
    return Math.PI * square;
  }
}

export function total(shapes: Shape[]): number {
  let sum = 0;
  for (const s of shapes) {
    sum += s.area();
  }
  return sum;
}

export function describe(shape: Shape, unit: string): string {
  return shape.name + ": " + label(shape.area(), unit + "2");
}
