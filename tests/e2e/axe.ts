import axe, { type AxeResults, type ElementContext } from 'axe-core'
import { type Page } from '@playwright/test'

/** WCAG 2.2 A and AA, as the accessibility issue asks. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/**
 * axe's serious and critical violations on the page as it is now, each as "rule: elements" (the
 * first three). `include`: only those parts of the page (a partner's page around our widgets is not
 * ours to judge).
 *
 * axe-core itself, in the page (through the DevTools protocol, so the portal's CSP does not stop
 * it), asked for violations only: @axe-core/playwright's builder also runs in each frame and
 * gathers every rule that passed, which the portal's pages (no frames) do not need. Measured on the
 * home page, the page's load included: the builder 3.6 s a check, in legacy mode 1.65 s, this 0.87 s;
 * the same findings (a missing alt text and low contrast on a planted page).
 */
export async function seriousAxeViolations(page: Page, options: { include?: string[] } = {}): Promise<string[]> {
	await page.evaluate(axe.source)
	const include = options.include?.map((selector) => [selector]) ?? []
	const result: AxeResults = await page.evaluate(
		({ include, tags }: { include: string[][]; tags: string[] }) => {
			const inPage = (window as unknown as { axe: typeof axe }).axe
			const context: ElementContext = include.length ? { include } : document
			return inPage.run(context, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }) as Promise<AxeResults>
		},
		{ include, tags: TAGS },
	)
	return result.violations
		.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
		.map((violation) => `${violation.id}: ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(' | ')}`)
}
