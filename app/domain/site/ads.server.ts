import { asc, eq } from 'drizzle-orm'
import { ads } from '~/db/schema'
import { forgetCaches } from '~/caching/cache-bus.server'
import { valueCache } from '~/caching/value-cache.server'
import { db, type DbOrTx } from '~/db/db.server'
import { safeLink, sanitizeHtml } from '~/utils/sanitize.server'
import { absoluteUrl } from '~/utils/seo.server'
import { uploadUrl } from '~/uploads/upload-url'
import { imageSourcesFor } from '~/uploads/access.server'
import { type Language } from '~/i18n/config'
import { adsInLanguage, type Ad, type AdPlacement, type AdSlots } from './ads'

export type { Ad, AdSlots }

type StoredAd = Ad & { placement: AdPlacement; adsType: number; language: Language }

// Read on every page: kept in memory briefly (like site settings); an administrator's save calls forgetAds().
const kept = valueCache<StoredAd[]>('ads', { ttlMs: 30_000 })

function activeAds(): Promise<StoredAd[]> {
	return kept.get('active', loadActiveAds)
}

async function loadActiveAds(): Promise<StoredAd[]> {
	const rows = await db
		.select()
		.from(ads)
		.where(eq(ads.active, true))
		.orderBy(asc(ads.placement), asc(ads.sortOrder), asc(ads.createdAt))
	const images = await imageSourcesFor(rows.map((row) => (row.adsType === 1 ? row.imageUploadId : null)))
	const list = rows
		.map((row): StoredAd => {
			const isImage = row.adsType === 1
			const link = isImage ? safeLink(row.adsLink) : null
			return {
				id: row.id,
				kind: isImage ? 'image' : 'html',
				image: isImage && row.imageUploadId ? uploadUrl(row.imageUploadId) : null,
				imageSource: (isImage && row.imageUploadId && images.get(row.imageUploadId)) || null,
				link,
				external: Boolean(link && !link.startsWith('/')),
				html: isImage ? null : sanitizeHtml(row.content),
				placement: row.placement,
				adsType: row.adsType,
				language: row.language,
			}
		})
		// An image ad without an image, or an HTML ad that sanitizes to nothing, shows nothing.
		.filter((ad) => (ad.kind === 'image' ? Boolean(ad.image) : Boolean(ad.html)))
	return list
}

const strip = ({ placement: _p, adsType: _t, language: _l, ...ad }: StoredAd): Ad => ad

/**
 * The header and footer ads in the reader's language, for a layout's loader: `loadAdSlots(language)`,
 * rendered by `<AdSlot placement="Header" ads={ads.header} />` (app/components/ad-slot.tsx) on the
 * pages whose routes allow ads (app/utils/ad-places.ts).
 */
export async function loadAdSlots(language: Language): Promise<AdSlots> {
	const list = adsInLanguage(await activeAds(), language)
	return {
		header: list.filter((ad) => ad.placement === 'Header').map(strip),
		footer: list.filter((ad) => ad.placement === 'Footer').map(strip),
	}
}

/** Spec §7 `GET /admin/api/ads-details`: `{ ads_type, image, ads_link, content, placement, language }`, absolute URLs. */
export type ApiAd = {
	ads_type: number
	image: string | null
	ads_link: string | null
	content: string | null
	placement: AdPlacement
	language: Language
}

/** The ads of the language asked for (`?lng=`), as the portal shows them to its own readers. */
export async function adsForApi(language: Language): Promise<ApiAd[]> {
	return adsInLanguage(await activeAds(), language).map((ad) => ({
		ads_type: ad.adsType,
		image: absoluteUrl(ad.image),
		ads_link: absoluteUrl(ad.link),
		content: ad.html,
		placement: ad.placement,
		language: ad.language,
	}))
}

/** Drops the ads in every process (after an administrator changes one, inside that transaction; tests). */
export function forgetAds(tx?: DbOrTx) {
	return forgetCaches(tx, 'ads')
}
