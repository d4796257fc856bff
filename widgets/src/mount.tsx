import { useEffect, useMemo, useState } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { type Language } from '~/i18n/config'
import { createApi } from './api'
import { ContactWidget } from './contact'
import { WidgetProvider } from './context'
import { DetailsWidget } from './details'
import { dictionaryFor, makeTranslate, pickLanguage } from './i18n'
import { ListWidget } from './list'
import { RequestWidget } from './request'
import css from './styles.css'
import { Failure, Loading } from './ui'

export const widgetKinds = ['list', 'details', 'contact', 'request'] as const
export type WidgetKind = (typeof widgetKinds)[number]

/** What a widget can be told, by `data-*` attributes or by `mount(element, options)`. */
export type WidgetOptions = {
	widget: WidgetKind
	/** et, en or ru; else the page's `lang`, else Estonian. */
	lang?: string
	/** The portal's address; by default where widgets.js came from. */
	api?: string
	workshopId?: string
	q?: string
	city?: string
	service?: string
	brand?: string
	sort?: string
	/** The request widget's preset services: codes, comma-separated (`tyres,brakes`) or a list. */
	services?: string | string[]
	/** The partner site's key (issue 37): every call carries it, and the portal counts what the site brought. */
	partnerKey?: string
}

const roots = new WeakMap<Element, Root>()
let defaultApi = typeof location === 'undefined' ? '' : location.origin
let assets = `${defaultApi}/widgets`

/** The IIFE sets the portal's address to its own script's origin, and the texts' place to its directory. */
export function setDefaultApi(origin: string, assetsBase = `${origin}/widgets`) {
	defaultApi = origin
	assets = assetsBase
}

/** One stylesheet shared by every shadow root; `<style>` where constructable sheets are missing. */
let sheet: CSSStyleSheet | null = null
function addStyles(shadow: ShadowRoot) {
	if ('adoptedStyleSheets' in shadow && 'replaceSync' in CSSStyleSheet.prototype) {
		if (!sheet) {
			sheet = new CSSStyleSheet()
			sheet.replaceSync(css)
		}
		shadow.adoptedStyleSheets = [sheet]
		return
	}
	const style = document.createElement('style')
	style.textContent = css
	shadow.appendChild(style)
}

function readOptions(element: Element, given: Partial<WidgetOptions>): WidgetOptions | null {
	const data = (element as HTMLElement).dataset ?? {}
	const pickValue = (key: Exclude<keyof WidgetOptions, 'services'>, attribute: string = key) => (given[key] as string | undefined) ?? data[attribute] ?? undefined
	const widget = pickValue('widget', 'workshopWidget') as WidgetKind | undefined
	if (!widget || !widgetKinds.includes(widget)) return null
	return {
		widget,
		lang: pickValue('lang'),
		api: pickValue('api'),
		workshopId: pickValue('workshopId'),
		q: pickValue('q'),
		city: pickValue('city'),
		service: pickValue('service'),
		brand: pickValue('brand'),
		sort: pickValue('sort'),
		services: given.services ?? data.services,
		partnerKey: pickValue('partnerKey'),
	}
}

/**
 * Renders a widget into the element's shadow root, so the page's CSS cannot reach it and its CSS
 * cannot leak out. Mounting an element again replaces its widget.
 */
export function mount(element: Element, options: Partial<WidgetOptions> = {}): boolean {
	const settings = readOptions(element, options)
	if (!settings) return false
	unmount(element)
	const language = pickLanguage(settings.lang)
	const shadow = element.shadowRoot ?? element.attachShadow({ mode: 'open' })
	shadow.replaceChildren()
	addStyles(shadow)
	const container = document.createElement('div')
	container.className = 'root'
	container.lang = language
	shadow.appendChild(container)
	const root = createRoot(container)
	root.render(<Widget settings={settings} language={language} api={settings.api || defaultApi} assets={assets} />)
	roots.set(element, root)
	element.setAttribute('data-workshop-widget-mounted', '')
	return true
}

/** Removes the widget from the element (the shadow root itself stays, empty). */
export function unmount(element: Element): boolean {
	const root = roots.get(element)
	if (!root) return false
	root.unmount()
	roots.delete(element)
	element.shadowRoot?.replaceChildren()
	element.removeAttribute('data-workshop-widget-mounted')
	return true
}

/** Mounts every `[data-workshop-widget]` element not mounted yet (under `scope`, default the page). */
export function mountAll(scope: ParentNode = document): number {
	let count = 0
	for (const element of scope.querySelectorAll('[data-workshop-widget]:not([data-workshop-widget-mounted])')) {
		if (mount(element)) count++
	}
	return count
}

/** Loads the language's texts, then shows the widget (a spinner and the boot texts until then). */
function Widget({ settings, language, api, assets }: { settings: WidgetOptions; language: Language; api: string; assets: string }) {
	const [dictionary, setDictionary] = useState<Record<string, string> | null>(null)
	const [failed, setFailed] = useState<unknown>(null)
	const [attempt, setAttempt] = useState(0)
	useEffect(() => {
		let live = true
		setFailed(null)
		dictionaryFor(language, assets).then(
			(loaded) => live && setDictionary(loaded),
			(error: unknown) => live && setFailed(error ?? true),
		)
		return () => {
			live = false
		}
	}, [language, assets, attempt])
	const context = useMemo(
		() => ({ api: createApi(api, language, settings.partnerKey), language, t: makeTranslate(language, dictionary ?? undefined) }),
		[api, language, dictionary, settings.partnerKey],
	)
	return (
		<WidgetProvider value={context}>
			{!dictionary ? failed ? <Failure error={failed} retry={() => setAttempt((n) => n + 1)} /> : <Loading /> : null}
			{dictionary && settings.widget === 'list' ? <ListWidget options={settings} /> : null}
			{dictionary && settings.widget === 'details' ? <DetailsWidget workshopId={settings.workshopId ?? ''} /> : null}
			{dictionary && settings.widget === 'contact' ? <ContactWidget /> : null}
			{dictionary && settings.widget === 'request' ? <RequestWidget workshopId={settings.workshopId} services={settings.services} /> : null}
		</WidgetProvider>
	)
}
