import { type ImageSource, publicUploadUrl, THUMBNAIL_WIDTH, uploadUrl, VARIANT_FORMATS, variantMimeType } from '~/uploads/upload-url'

type Props = {
	image: ImageSource
	alt: string
	/** The `sizes` of the copies: how wide the image is laid out, e.g. `72px` or `(min-width: 640px) 33vw, 50vw`. */
	sizes: string
	/**
	 * The width it is laid out at (CSS pixels, the widest case), for the `width` attribute; the
	 * height follows from the image's own proportions. Its own width by default.
	 */
	width?: number
	/**
	 * `lazy` (the default) for an image below the fold; `eager` for one above it; `high` for the
	 * one image a page is about, above the fold (fetched first).
	 */
	loading?: 'lazy' | 'eager' | 'high'
	className?: string
}

/**
 * An uploaded image at the size it is shown (issue 18, decision 0093): a `<picture>` with its
 * AVIF and WebP copies for the browser to choose from, and an `<img>` with its dimensions, so
 * the page does not move as it loads. An image whose copies are not made yet shows its
 * thumbnail where that is wide enough, else the image itself.
 */
export function ResponsiveImage({ image, alt, sizes, width = image.width, loading = 'lazy', className }: Props) {
	const height = Math.max(1, Math.round((width * image.height) / image.width))
	const fetching =
		loading === 'lazy'
			? { loading: 'lazy' as const, decoding: 'async' as const }
			: // React 18 knows no fetchPriority: the attribute is written as HTML spells it.
				{ loading: 'eager' as const, ...(loading === 'high' ? ({ fetchpriority: 'high' } as Record<string, string>) : {}) }
	const attributes = { width, height, className, ...fetching }
	if (!image.widths.length) {
		const src = publicUploadUrl(image.id, image.thumbnail && width <= THUMBNAIL_WIDTH ? 'thumb' : undefined)
		return <img src={src} alt={alt} {...attributes} />
	}
	const url = (w: number, format: (typeof VARIANT_FORMATS)[number]) => publicUploadUrl(image.id, { width: w, format, version: image.version })
	// For a browser that reads no <source>: the smallest WebP copy as wide as the layout, else the widest.
	const fallback = image.widths.find((w) => w >= width) ?? image.widths[image.widths.length - 1]!
	return (
		<picture className="responsive-image">
			{VARIANT_FORMATS.map((format) => (
				<source key={format} type={variantMimeType(format)} srcSet={image.widths.map((w) => `${url(w, format)} ${w}w`).join(', ')} sizes={sizes} />
			))}
			<img src={url(fallback, 'webp')} alt={alt} {...attributes} />
		</picture>
	)
}

/**
 * A private upload (a logo, a photo) by its id: its copies when its size is known (`image`), else
 * its thumbnail at `width` × `height`.
 */
export function UploadedImage({
	id,
	image,
	alt,
	sizes,
	width,
	height,
	loading = 'lazy',
	className,
}: Omit<Props, 'image' | 'width'> & { id: string; image: ImageSource | null; width: number; height: number }) {
	if (image) return <ResponsiveImage image={image} alt={alt} sizes={sizes} width={width} loading={loading} className={className} />
	const fetching = loading === 'lazy' ? { loading: 'lazy' as const, decoding: 'async' as const } : {}
	return <img src={uploadUrl(id, 'thumb')} alt={alt} width={width} height={height} className={className} {...fetching} />
}
