// What the TypeScript oracle compiles the refactor_ts fixture with beside
// its own files: JSX elements of any name and the factory they become, so
// that tsc checks the TSX file's types without React.
declare namespace JSX {
  interface IntrinsicElements {
    [element: string]: unknown;
  }
}
declare function h(...parts: unknown[]): unknown;
