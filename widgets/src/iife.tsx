import { mount, mountAll, setDefaultApi, unmount } from './mount'

/**
 * The script-tag build (public/widgets/widgets.js, React included): calls go to the origin the
 * script came from unless an element says `data-api`; every `[data-workshop-widget]` element is
 * mounted once the page is parsed, and `window.WorkshopWidgets` mounts the ones added later.
 */
const script = document.currentScript as HTMLScriptElement | null
const source = script?.src || document.querySelector<HTMLScriptElement>('script[src*="/widgets/widgets.js"]')?.src
if (source) {
	const url = new URL(source, location.href)
	setDefaultApi(url.origin, new URL('.', url).href.replace(/\/$/, ''))
}

declare global {
	interface Window {
		WorkshopWidgets?: { mount: typeof mount; unmount: typeof unmount; mountAll: typeof mountAll }
	}
}
window.WorkshopWidgets = { mount, unmount, mountAll }

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => mountAll())
else mountAll()
