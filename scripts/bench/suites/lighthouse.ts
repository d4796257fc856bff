import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { launch, type LaunchedChrome } from 'chrome-launcher'
import lighthouse, { type Flags, type Result } from 'lighthouse'
import { chromiumBrowserPath } from '../../chromium-path.mjs'
import { freePort } from '../../free-port.mjs'
import { type Answer, loadAnswer, serveAnswers, withoutJavaScript } from '../lib/bare-page'
import { median, printColumns } from '../lib/report'
import { languageCookie, startPortal } from '../lib/server'
import { type BenchProcessSuite, type ProcessSuiteOptions } from '../types'

/**
 * Lighthouse, mobile (its default emulation and simulated throttling), on the four pages of
 * issue 18's goal 4: the home page, the directory, a workshop's page and the contact page. Each
 * page is measured `runs` times and the median of each category printed, beside the same page's
 * HTML sent bare from memory by node:http with its CSS and images but without JavaScript: what the
 * markup and styles alone score, so the difference is what the portal's scripts and server cost.
 *
 * The portal runs on the embedded database with the demo data (photos, reviews, ads: what a
 * visitor sees), not the bench's PostgreSQL: Lighthouse measures the browser's side, and a page
 * of the demo is a page of the real site. First-time visitors, in the default language; then
 * accessibility, best practices and SEO once in each of the other languages (the `lng` cookie).
 *
 * `--compare-with <checkout>`: another checkout's build (e.g. main in a second worktree) measured
 * in the same run, page by page in turn, so both see the same machine; `--portal <checkout>`: that
 * checkout's build is the portal measured. `--case` chooses pages by name (home, directory, workshop,
 * contact) before anything starts.
 */
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
type Category = (typeof CATEGORIES)[number]
const OTHER_LANGUAGES = ['en', 'ru']

type Target = { label: string; url: string; pages: Array<{ name: string; path: string }> }
type Scores = Record<Category, number>


/** The four pages, by the names `--case` chooses from; the workshop's is found on the portal. */
const PAGES = ['home', 'directory', 'workshop', 'contact']

/** The chosen pages' paths on a portal; the workshop is the first one its own directory lists. */
async function pagesOf(url: string, names: string[]): Promise<Target['pages']> {
	const fixed: Record<string, string> = { home: '/', directory: '/workshop-list', contact: '/contact-us' }
	const workshopPath = async () => {
		const list = await (await fetch(`${url}/workshop-list`)).text()
		const workshop = list.match(/href="(\/workshop-details\/[^"?#]+)"/)?.[1]
		if (!workshop) throw new Error(`no workshop listed at ${url}/workshop-list`)
		return workshop
	}
	return Promise.all(names.map(async (name) => ({ name, path: fixed[name] ?? (await workshopPath()) })))
}

/**
 * The bare baseline: each page's HTML without its scripts, and every other file (CSS, images,
 * icons) as the portal sent it, fetched once and answered from memory, gzipped as the portal does.
 */
async function startBare(portalUrl: string, pages: Target['pages']) {
	const answers = new Map<string, Answer>()
	for (const page of pages) answers.set(page.path, await loadAnswer(new URL(page.path, portalUrl), {}, withoutJavaScript))
	return serveAnswers(0, async (request) => {
		const url = request.url ?? '/'
		let answer = answers.get(url)
		if (!answer) answers.set(url, (answer = await loadAnswer(new URL(url, portalUrl))))
		return answer
	})
}

/** One Lighthouse run; a failed load (now and then Chrome reports one on this shared machine) is tried again. */
async function audit(chrome: LaunchedChrome, url: string, flags: Flags = {}, log?: (message: string) => void): Promise<Result> {
	for (let attempt = 1; ; attempt++) {
		const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', ...flags })
		const error = result ? result.lhr.runtimeError?.message : 'no result'
		if (result && !error) return result.lhr
		if (attempt === 3) throw new Error(`Lighthouse: ${error} (${url})`)
		log?.(`Lighthouse: ${error} (${url}); again`)
	}
}

const scoresOf = (lhr: Result): Scores =>
	Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as Scores

/** What keeps a category under 100: its failing audits with their weight, and, for performance, the metrics and what the diagnostics blame. */
export function failures(lhr: Result): string[] {
	const lines: string[] = []
	for (const category of CATEGORIES) {
		for (const ref of lhr.categories[category]?.auditRefs ?? []) {
			const a = lhr.audits[ref.id]
			if (!a || a.score === null || a.score >= 1) continue
			if (ref.weight > 0) lines.push(`${category}: ${ref.id} (weight ${ref.weight}) ${a.displayValue ?? ''} score ${a.score}`.trim())
			else if (category === 'performance' && a.score < 0.9 && a.scoreDisplayMode !== 'informative') {
				const details = a.details as { items?: Array<Record<string, unknown>> } | undefined
				const blamed = (details?.items ?? [])
					.flatMap((item) => {
						const url = typeof item.url === 'string' ? item.url.replace(/^https?:\/\/[^/]+/, '') : null
						const wasted = typeof item.wastedBytes === 'number' ? ` ${Math.round(item.wastedBytes / 1024)} KiB` : typeof item.wastedMs === 'number' ? ` ${Math.round(item.wastedMs)} ms` : ''
						const node = (item.node as { snippet?: string } | undefined)?.snippet
						return url ? [`${url}${wasted}`] : node ? [node.slice(0, 80)] : []
					})
					.slice(0, 4)
				lines.push(`performance diagnostic: ${ref.id} ${a.displayValue ?? ''}${blamed.length ? ` — ${blamed.join(', ')}` : ''}`)
			}
		}
	}
	const m = (id: string) => lhr.audits[id]?.displayValue ?? '?'
	lines.unshift(
		`metrics: FCP ${m('first-contentful-paint')}, LCP ${m('largest-contentful-paint')}, TBT ${m('total-blocking-time')}, CLS ${m('cumulative-layout-shift')}, SI ${m('speed-index')}`,
	)
	return lines
}

async function run({ cases, runs, portal: checkout, compareWith, log }: ProcessSuiteOptions) {
	const stoppers: Array<() => Promise<void>> = []
	const dataDirs: string[] = []
	const reportDir = path.join(os.tmpdir(), 'autohub-lighthouse')
	mkdirSync(reportDir, { recursive: true })
	try {
		const startDemo = async (label: string, cwd: string) => {
			const dir = mkdtempSync(path.join(os.tmpdir(), 'autohub-lighthouse-data-'))
			dataDirs.push(dir)
			log(`starting ${label} on the demo data`)
			const portal = await startPortal({ demoIn: dir }, await freePort(), { cwd })
			stoppers.push(portal.stop)
			return { label, url: portal.url, pages: await pagesOf(portal.url, cases) }
		}
		const targets: Target[] = []
		if (compareWith) targets.push(await startDemo(`before (${path.basename(compareWith)})`, compareWith))
		const portal = await startDemo('portal', checkout)
		targets.push(portal)
		const bare = await startBare(portal.url, portal.pages)
		stoppers.push(bare.stop)
		targets.push({ label: 'bare HTML+CSS, no JS', url: bare.url, pages: portal.pages })

		const chrome = await launch({
			chromePath: chromiumBrowserPath,
			chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'],
			logLevel: 'silent',
		})
		stoppers.push(async () => chrome.kill())

		// Every target's page in turn, run after run: slow moments of the machine fall on all alike.
		// The order of the targets turns each run: the one measured just after another server has
		// worked (its thumbnails, its jobs) is not always the same.
		const results = new Map<string, Result[]>()
		for (let i = 0; i < runs; i++) {
			const order = targets.map((_, t) => targets[(t + i) % targets.length]!)
			for (const [p, page] of portal.pages.entries()) {
				for (const target of order) {
					const lhr = await audit(chrome, target.url + target.pages[p]!.path, {}, log)
					const key = `${target.label}|${page.name}`
					results.set(key, [...(results.get(key) ?? []), lhr])
					log(`run ${i + 1}/${runs} ${page.name} ${target.label}: ${CATEGORIES.map((c) => scoresOf(lhr)[c]).join(' / ')}`)
				}
			}
		}
		// The other languages: the categories whose audits read the text.
		const byLanguage: string[] = []
		for (const page of portal.pages) {
			for (const language of OTHER_LANGUAGES) {
				const lhr = await audit(chrome, portal.url + page.path, {
					onlyCategories: ['accessibility', 'best-practices', 'seo'],
					extraHeaders: { Cookie: languageCookie(language) },
				}, log)
				const s = scoresOf(lhr)
				const failing = failures(lhr).filter((line) => !line.startsWith('metrics') && !line.startsWith('performance'))
				byLanguage.push(`${page.name} (${language}): accessibility ${s.accessibility}, best practices ${s['best-practices']}, SEO ${s.seo}${failing.length ? `\n    ${failing.join('\n    ')}` : ''}`)
			}
		}

		console.log(`\nLighthouse mobile, median of ${runs} run${runs > 1 ? 's' : ''} (performance / accessibility / best practices / SEO)`)
		let failed = false
		const rows = portal.pages.map((page) => [
			page.name,
			...targets.map((target) => {
				const lhrs = results.get(`${target.label}|${page.name}`)!
				const s = CATEGORIES.map((c) => median(lhrs.map((lhr) => scoresOf(lhr)[c])))
				if (target === portal && (s[0]! < 98 || s.slice(1).some((v) => v < 100))) failed = true
				return s.join(' / ')
			}),
		])
		printColumns(['page', ...targets.map((t) => t.label)], rows)
		console.log(`\n${byLanguage.join('\n')}`)
		// What the portal's median run (by performance) still fails, and where its reports are.
		for (const target of targets) {
			console.log(`\n${target.label}: what is short of 100`)
			for (const page of portal.pages) {
				const lhrs = [...results.get(`${target.label}|${page.name}`)!].sort((a, b) => scoresOf(a).performance - scoresOf(b).performance)
				const lhr = lhrs[Math.floor((lhrs.length - 1) / 2)]!
				const file = path.join(reportDir, `${target.label.replace(/\W+/g, '-')}-${page.name}.json`)
				writeFileSync(file, JSON.stringify(lhr))
				console.log(`  ${page.name} (${file})\n    ${failures(lhr).join('\n    ')}`)
			}
		}
		return { failed }
	} finally {
		for (const stop of stoppers.reverse()) await stop().catch(() => {})
		for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
	}
}

export const lighthouseSuite: BenchProcessSuite = {
	name: 'lighthouse',
	description: 'Lighthouse mobile on the home, directory, workshop and contact pages, against the same HTML and CSS sent bare without JavaScript',
	cases: PAGES,
	compares: true,
	run,
}
