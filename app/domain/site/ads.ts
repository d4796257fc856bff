/**
 * Ads (spec §3): an image with an optional link (`ads_type` 1) or HTML content, shown in the
 * header and footer areas of every page. Shared by the public frame and the signed-in shell.
 */
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

/** The ads of each area, as `loadAdSlots()` returns them and `<AdSlot>` takes them. */
export type AdSlots = { header: Ad[]; footer: Ad[] }
