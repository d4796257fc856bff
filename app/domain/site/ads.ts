/**
 * Ads (spec §3): an image with an optional link (`ads_type` 1) or HTML content, in one language,
 * shown in the header and footer areas of the pages whose routes allow ads (app/utils/ad-places.ts).
 * Shared by the public frame and the signed-in shell.
 */
import { type Language } from '~/i18n/config'
import { type ImageSource } from '~/uploads/upload-url'

export const adPlacementNames = ['Header', 'Footer'] as const
export type AdPlacement = (typeof adPlacementNames)[number]

/** One ad ready to render: URLs made, HTML sanitized on the server. */
export type Ad = {
	id: string
	kind: 'image' | 'html'
	/** The image's URL (image ads). */
	image: string | null
	/** The image at the size it is shown (issue 18); null until known, then `image` serves. */
	imageSource: ImageSource | null
	/** Where the image leads: a path on this site or an http(s) address; null for none. */
	link: string | null
	/** True when the link leaves this site (opens in a new tab, marked sponsored). */
	external: boolean
	/** Sanitized HTML (HTML ads). */
	html: string | null
}

/** The ads of each area, as `loadAdSlots(language)` returns them and `<AdSlot>` takes them. */
export type AdSlots = { header: Ad[]; footer: Ad[] }

/**
 * An ad is shown only to readers of its language (issue 32): never the text of one language, or
 * all three at once, to a reader of another. One ad per language, chosen in the administration.
 */
export function adsInLanguage<T extends { language: Language }>(list: T[], language: Language): T[] {
	return list.filter((ad) => ad.language === language)
}
