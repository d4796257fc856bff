import { encodeId } from './public-id'

/** The URL of a stored file; `thumb` asks for the image's thumbnail. */
export function uploadUrl(uploadId: string, variant?: 'thumb') {
	return `/uploads/${encodeId(uploadId)}${variant ? `?variant=${variant}` : ''}`
}
