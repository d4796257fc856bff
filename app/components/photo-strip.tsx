import { uploadUrl, type ImageSource } from '~/uploads/upload-url'
import { UploadedImage } from './responsive-image'

/** A row of small photos (a request's, extra work's), each opening the full-size file. */
export function PhotoStrip({
	images,
	label,
	altFor,
}: {
	images: Array<{ id: string; source: ImageSource | null }>
	label: string
	altFor: (index: number) => string
}) {
	if (!images.length) return null
	return (
		<ul className="photo-strip" aria-label={label}>
			{images.map(({ id: uploadId, source }, index) => {
				const alt = altFor(index)
				return (
					<li key={uploadId}>
						{/* The photo itself opens from the link, full size. */}
						<a href={uploadUrl(uploadId)} target="_blank" rel="noreferrer">
							<UploadedImage id={uploadId} image={source} alt={alt} sizes="9rem" width={144} height={108} />
						</a>
					</li>
				)
			})}
		</ul>
	)
}
