import { encodeId } from '~/utils/public-id'

/** The formats of an image's smaller copies (issue 18, decision 0093), the smallest first. */
export const VARIANT_FORMATS = ['avif', 'webp'] as const
export type VariantFormat = (typeof VARIANT_FORMATS)[number]
export const variantMimeType = (format: VariantFormat) => `image/${format}` as const

/** The width of an image's WebP thumbnail (none wider than the image): a page showing it no wider needs no copy. */
export const THUMBNAIL_WIDTH = 480

/** One of an image's smaller copies; `version` (from the file's hash) lets caches keep it for good. */
export type UploadVariant = { width: number; format: VariantFormat; version?: string }

/**
 * The URL of a stored file; `thumb` asks for the image's thumbnail, a variant for one of its
 * smaller copies (`?w=640&f=avif&v=…`).
 */
export function uploadUrl(uploadId: string, variant?: 'thumb' | UploadVariant) {
	return publicUploadUrl(encodeId(uploadId), variant)
}

/** uploadUrl for an upload's public id (as an ImageSource carries it). */
export function publicUploadUrl(publicId: string, variant?: 'thumb' | UploadVariant) {
	const base = `/uploads/${publicId}`
	if (!variant) return base
	if (variant === 'thumb') return `${base}?variant=thumb`
	return `${base}?w=${variant.width}&f=${variant.format}${variant.version ? `&v=${variant.version}` : ''}`
}

/**
 * What a page needs to show an uploaded image at the right size (ResponsiveImage): its public
 * URLs' parts and its dimensions. Made on the server by imageSourcesFor (app/uploads/access.server.ts).
 */
export type ImageSource = {
	/** The upload's public id (encodeId), as in /uploads/{id}. */
	id: string
	width: number
	height: number
	/** The widths of its AVIF and WebP copies; empty until they are made (then the thumbnail serves). */
	widths: number[]
	/** Versions the copies' URLs: the start of the file's hash. */
	version: string
	/** Whether it has a WebP thumbnail (every image since issue 13). */
	thumbnail: boolean
}

/** A file held from a form's last sending (a public id), as the form lists it with a box to keep it. */
export type HeldFile = { id: string; name: string; image: boolean }

/** The name of the boxes that keep a file field's held files (`imagesHeld` for `images`). */
export const heldFieldName = (field: string) => `${field}Held`

/** What an /uploads/{id} address asks for: the file, its thumbnail or one of its copies. */
export type UploadAsked = 'original' | 'thumb' | UploadVariant

/**
 * The reverse of publicUploadUrl: what a query asks for, or null for one no file answers (an
 * unknown format, a width that is not a number, a copy's parameter without the other).
 */
export function parseUploadQuery(query: URLSearchParams): UploadAsked | null {
	const width = query.get('w')
	const format = query.get('f')
	if (width === null && format === null) return query.get('variant') === 'thumb' ? 'thumb' : 'original'
	const known = VARIANT_FORMATS.find((candidate) => candidate === format)
	if (!known || !width || !/^\d{1,5}$/.test(width)) return null
	const version = query.get('v')
	return { width: Number(width), format: known, ...(version !== null ? { version } : {}) }
}

/** The types each kind of file field takes, checked by content on the server (storage.server.ts). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const
export const PDF_TYPES = ['application/pdf'] as const
export type FileKind = 'images' | 'pdf'
/** A file input's `accept` for a kind of file. */
export const acceptOf = (kind: FileKind) => (kind === 'pdf' ? PDF_TYPES : IMAGE_TYPES).join(',')
