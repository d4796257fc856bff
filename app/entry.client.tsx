import { HydratedRouter } from 'react-router/dom'
import { options, type VNode } from 'preact'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { fallbackLanguage, isLanguage } from '~/i18n/config'
import { loadDictionaries } from '~/i18n/dictionaries.client'
import { TranslationProvider } from '~/i18n/translation'

/**
 * HydratedRouter suspends on its first render until it has decoded the server's
 * state. In React 18 a key press or click that forces hydration while the root is suspended throws
 * "Root did not complete" (#345; fixed in React 19), so a visitor typing while a slow phone
 * hydrates met an error. Start the decoding and wait for it before hydrating: HydratedRouter throws
 * that promise before it touches any hook, and renders without suspending afterwards.
 */
async function decodeServerState() {
	try {
		HydratedRouter({})
	} catch (thrown) {
		if (thrown instanceof Promise) await thrown
	}
}

/**
 * The node the page hydrates into. React takes the document. Preact (the production build's browser
 * runtime, vite.config.ts) hydrates into a parent's child nodes: given the document it would look
 * for <html> among <html>'s own children and add a second head and body. So it gets a stand-in
 * parent whose one child is the page's <html>, whichever that is now: the root's error page and the
 * page after it each bring a new <html> (another element tree), which takes the old one's place.
 */
function hydrationContainer(): Document {
	if (!import.meta.env.PREACT) return document
	const place = (node: Node) => {
		const current = document.documentElement
		if (node !== current) {
			if (current) document.replaceChild(node, current)
			else document.appendChild(node)
		}
		return node
	}
	return {
		get firstChild() {
			return document.documentElement
		},
		get childNodes() {
			return [document.documentElement]
		},
		insertBefore: place,
		appendChild: place,
		// The old <html> is gone already when Preact removes it: the new one took its place.
		removeChild: (node: Node) => node,
	} as unknown as Document
}

/**
 * A script element the browser renders never runs, as with React (which makes them through
 * innerHTML): it ran, if at all, from the server's HTML. Preact makes them with createElement, so
 * the scroll restoration's script in a new <html> would run again, or be refused by the CSP (the
 * browser has no nonce). Scripts rendered in the browser are given a type that does not run; JSON-LD
 * keeps its own. Hydration leaves the server's attributes as they are.
 */
function inertScripts() {
	const next = options.vnode
	options.vnode = (vnode: VNode) => {
		const props = vnode.props as { type?: string }
		if (vnode.type === 'script' && props.type !== 'application/ld+json') vnode.props = { ...vnode.props, type: 'text/plain' } as VNode['props']
		next?.(vnode)
	}
}

async function hydrate() {
	const lang = document.documentElement.lang
	const language = isLanguage(lang) ? lang : fallbackLanguage
	// The dictionaries load while the server's state is decoded. Every key exists in every language
	// (tests/unit/locales.test.ts): no fallback bundle to fetch.
	const [dictionaries] = await Promise.all([loadDictionaries(language), decodeServerState()])
	if (import.meta.env.PREACT) inertScripts()
	startTransition(() => {
		hydrateRoot(
			hydrationContainer(),
			<TranslationProvider language={language} dictionaries={dictionaries} load={loadDictionaries}>
				<StrictMode>
					<HydratedRouter />
				</StrictMode>
			</TranslationProvider>,
		)
	})
}

void hydrate()
