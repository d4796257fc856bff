import { useTranslation } from 'react-i18next'
import { type RequestDetail } from '~/domain/service-flow/requests'
import { useLanguage } from '~/i18n/use-language'
import { formatDateTime, formatNumber } from '~/utils/format'
import { uploadUrl } from '~/utils/upload-url'
import { Fact } from './panel'
import { ResponsiveImage } from './responsive-image'

/** Everything the customer entered for a request, with its photos (customer and workshop pages). */
export function RequestSummary({ request }: { request: Pick<RequestDetail, 'vehicle' | 'services' | 'preferredAt' | 'location' | 'city' | 'details' | 'notes' | 'images'> }) {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	const { vehicle } = request
	return (
		<div className="request-summary">
			<dl className="facts">
				<Fact className="facts__row" label={t('request.vehicle')}>
					{vehicle.name} <span className="plate plate--small">{vehicle.registrationNumber}</span>
					<span className="facts__more">
						{[vehicle.year, t('vehicles.mileage', { miles: formatNumber(vehicle.mileage, language) }), t(`vehicle.transmissions.${vehicle.transmission}`), vehicle.fuelType ? t(`vehicle.fuelTypes.${vehicle.fuelType}`) : null]
							.filter(Boolean)
							.join(' · ')}
					</span>
				</Fact>
				<Fact className="facts__row" label={t('request.services')}>
					<ul className="tags">
						{request.services.map((service) => (
							<li key={service} className="tag">
								{service}
							</li>
						))}
					</ul>
				</Fact>
				<Fact className="facts__row" label={t('request.preferredAt')}>
					{formatDateTime(request.preferredAt, language)}
				</Fact>
				<Fact className="facts__row" label={t('request.location')}>
					{request.city && !request.location.includes(request.city) ? `${request.location}, ${request.city}` : request.location}
				</Fact>
				<Fact className="facts__row facts__row--wide" valueClassName="prose-text" label={t('request.details')}>
					{request.details}
				</Fact>
				{request.notes ? (
					<Fact className="facts__row facts__row--wide" valueClassName="prose-text" label={t('request.notes')}>
						{request.notes}
					</Fact>
				) : null}
			</dl>
			{request.images.length ? (
				<ul className="photo-strip" aria-label={t('request.images')}>
					{request.images.map(({ id: uploadId, source }, index) => {
						const alt = t('request.imageAlt', { number: index + 1 })
						return (
							<li key={uploadId}>
								{/* The photo itself opens from the link, full size. */}
								<a href={uploadUrl(uploadId)} target="_blank" rel="noreferrer">
									{source ? (
										<ResponsiveImage image={source} alt={alt} sizes="9rem" width={144} />
									) : (
										<img src={uploadUrl(uploadId, 'thumb')} alt={alt} loading="lazy" decoding="async" width={240} height={180} />
									)}
								</a>
							</li>
						)
					})}
				</ul>
			) : null}
		</div>
	)
}
