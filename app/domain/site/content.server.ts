import { eq, inArray } from 'drizzle-orm'
import { contentPages } from '~/db/schema'
import { fallbackLanguage, type Language } from '~/i18n/config'
import { getLanguage } from '~/i18n/i18n.server'
import { db } from '~/db/db.server'
import { formatDate } from '~/utils/format'
import { sanitizeHtml } from '~/utils/sanitize.server'
import { pageSeo } from '~/utils/seo.server'

/** The content pages of spec §2 and the slugs they are stored under. */
export const contentPageSlugs = ['about-us', 'terms-and-conditions', 'privacy-policy'] as const
export type ContentPageSlug = (typeof contentPageSlugs)[number]

export type ContentPageView = { slug: ContentPageSlug; language: Language; title: string; html: string; updated: string }

/**
 * A content page in the reader's language; when that language has no version yet, the Estonian
 * one (then any). The body is sanitized on every read: what an administrator typed is never trusted.
 */
export async function getContentPage(slug: ContentPageSlug, language: Language): Promise<ContentPageView | null> {
	const rows = await db.select().from(contentPages).where(eq(contentPages.slug, slug))
	const row =
		rows.find((r) => r.language === language) ?? rows.find((r) => r.language === fallbackLanguage) ?? rows[0]
	if (!row) return null
	return {
		slug,
		language: row.language,
		title: row.title,
		html: sanitizeHtml(row.bodyHtml),
		updated: formatDate(row.updatedAt, language),
	}
}

/** The first sentences of the body as plain text, for the meta description. */
function summary(html: string, max = 160) {
	const text = html
		.replace(/<[^>]+>/g, ' ')
		.replace(/&nbsp;/g, ' ')
		.replace(/&amp;/g, '&')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/\s+/g, ' ')
		.trim()
	if (text.length <= max) return text
	const cut = text.slice(0, max - 1)
	return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2))}…`
}

/** The loader of /about, /terms-conditions and /privacy-poicy. */
export async function loadContentPage(request: Request, slug: ContentPageSlug) {
	const language = await getLanguage(request)
	const page = await getContentPage(slug, language)
	if (!page) throw new Response('Not found', { status: 404 })
	return { page, meta: pageSeo(request, language, { title: page.title, description: summary(page.html) }) }
}

/** The loader's type, for useLoaderData and meta in the route modules. */
export type ContentPageLoader = (args: { request: Request }) => ReturnType<typeof loadContentPage>

/** The content pages that exist in at least one language (for the sitemap). */
export async function existingContentPages(): Promise<ContentPageSlug[]> {
	const rows = await db
		.selectDistinct({ slug: contentPages.slug })
		.from(contentPages)
		.where(inArray(contentPages.slug, [...contentPageSlugs]))
	return rows.map((r) => r.slug as ContentPageSlug)
}
