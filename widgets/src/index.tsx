/**
 * The ES module build (public/widgets/widgets.esm.js) for partners who bundle React themselves:
 * react and react-dom (18) are peers. Without `api` the calls go to the page's own origin.
 */
export { mount, mountAll, unmount, setDefaultApi, type WidgetKind, type WidgetOptions } from './mount'
