import { encodeId } from './public-id'

/** The URL of a stored file; `thumb` asks for the image's thumbnail. */
export function uploadUrl(uploadId: string, variant?: 'thumb') {
	return `/uploads/${encodeId(uploadId)}${variant ? `?variant=${variant}` : ''}`
}

/** A file held from a form's last sending (a public id), as the form lists it with a box to keep it. */
export type HeldFile = { id: string; name: string; image: boolean }

/** The name of the boxes that keep a file field's held files (`imagesHeld` for `images`). */
export const heldFieldName = (field: string) => `${field}Held`

/** The types each kind of file field takes, checked by content on the server (storage.server.ts). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const
export const PDF_TYPES = ['application/pdf'] as const
export type FileKind = 'images' | 'pdf'
/** A file input's `accept` for a kind of file. */
export const acceptOf = (kind: FileKind) => (kind === 'pdf' ? PDF_TYPES : IMAGE_TYPES).join(',')
