import fs from 'node:fs'
import path from 'node:path'
import { areaOf, pageSizes } from '../../check-client-js.mjs'
import { printColumns } from '../lib/report'
import { type BenchProcessSuite } from '../types'

/**
 * The JavaScript each page ships (issue 18, goal 3), from the build of `--portal` (this checkout by
 * default): what a first visit downloads, gzipped at level 9, counted as `npm run build` counts it
 * (scripts/check-client-js.mjs, decisions 0090 and 0108). Each page beside its target (100 KB public,
 * 130 KB signed-in) and, with `--compare-with <checkout>`, beside that checkout's build of the same
 * page. Cases: `public` (every public page) and `signed-in` (the form pages and the largest).
 * It reads builds; it builds nothing (the bench builds this checkout first unless --no-build).
 */
const TARGETS = { public: 100 * 1024, signedIn: 130 * 1024 } as const
const SIGNED_IN_PAGES = ['routes/_app.new-service-register', 'routes/_app.add-vehicle', 'routes/_app.dashboard', 'routes/_app.compaire-offers.$slug', 'routes/_app.workshop-bid-details.$slug']

const kb = (bytes: number) => (bytes / 1024).toFixed(1)

function sizesOf(checkout: string) {
	const client = path.join(checkout, 'build/client')
	if (!fs.existsSync(client)) throw new Error(`${checkout} has no build/client: build it first (npm run build)`)
	return pageSizes(client) as Record<string, number>
}

export const javascriptSuite: BenchProcessSuite = {
	name: 'javascript',
	description: "each page's JavaScript on a first visit (gzip), beside its target",
	cases: ['public', 'signed-in'],
	compares: true,
	async run({ cases, portal, compareWith, log }) {
		const sizes = sizesOf(portal)
		const other = compareWith ? sizesOf(compareWith) : undefined
		const largestSignedIn = Object.entries(sizes)
			.filter(([id]) => areaOf(id) === 'signedIn')
			.sort((a, b) => b[1] - a[1])
			.slice(0, 3)
			.map(([id]) => id)
		const pages = Object.keys(sizes)
			.filter((id) => (areaOf(id) === 'public' ? cases.includes('public') : cases.includes('signed-in') && [...SIGNED_IN_PAGES, ...largestSignedIn].includes(id)))
			.sort((a, b) => sizes[b]! - sizes[a]!)
		let failed = false
		const rows = pages.map((id) => {
			const target = TARGETS[areaOf(id) as keyof typeof TARGETS]
			const bytes = sizes[id]!
			if (bytes > target) failed = true
			return [id.replace(/^routes\//, ''), kb(bytes), ...(other ? [other[id] === undefined ? '' : kb(other[id]!)] : []), kb(target), (bytes / target).toFixed(2)]
		})
		console.log()
		printColumns(['page', 'KB gzip', ...(other ? ['KB, --compare-with'] : []), 'target KB', 'share of target'], rows)
		if (failed) log('a page is over its target')
		return { failed }
	},
}
