// The qrcode package's encoder alone (its `create`), without the entry point that also loads the PNG, SVG,
// canvas and terminal renderers: character art needs only the module matrix (shared/domain/orders/checks.ts).
declare module 'qrcode/lib/core/qrcode.js' {
  export { create } from 'qrcode';
}
