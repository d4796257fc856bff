import { useTranslation } from 'react-i18next'
import { type RequestDetail } from '~/domain/requests'
import { useLanguage } from '~/i18n/use-language'
import { formatDateTime, formatNumber } from '~/utils/format'
import { uploadUrl } from '~/utils/upload-url'

/** Everything the customer entered for a request, with its photos (customer and workshop pages). */
export function RequestSummary({ request }: { request: Pick<RequestDetail, 'vehicle' | 'services' | 'preferredAt' | 'location' | 'city' | 'details' | 'notes' | 'images'> }) {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	const { vehicle } = request
	return (
		<div className="request-summary">
			<dl className="facts">
				<div className="facts__row">
					<dt>{t('request.vehicle')}</dt>
					<dd>
						{vehicle.name} <span className="plate plate--small">{vehicle.registrationNumber}</span>
						<span className="facts__more">
							{[vehicle.year, t('vehicles.mileage', { miles: formatNumber(vehicle.mileage, language) }), t(`vehicle.transmissions.${vehicle.transmission}`), vehicle.fuelType ? t(`vehicle.fuelTypes.${vehicle.fuelType}`) : null]
								.filter(Boolean)
								.join(' · ')}
						</span>
					</dd>
				</div>
				<div className="facts__row">
					<dt>{t('request.services')}</dt>
					<dd>
						<ul className="tags">
							{request.services.map((service) => (
								<li key={service} className="tag">
									{service}
								</li>
							))}
						</ul>
					</dd>
				</div>
				<div className="facts__row">
					<dt>{t('request.preferredAt')}</dt>
					<dd>{formatDateTime(request.preferredAt, language)}</dd>
				</div>
				<div className="facts__row">
					<dt>{t('request.location')}</dt>
					<dd>{request.city && !request.location.includes(request.city) ? `${request.location}, ${request.city}` : request.location}</dd>
				</div>
				<div className="facts__row facts__row--wide">
					<dt>{t('request.details')}</dt>
					<dd className="prose-text">{request.details}</dd>
				</div>
				{request.notes ? (
					<div className="facts__row facts__row--wide">
						<dt>{t('request.notes')}</dt>
						<dd className="prose-text">{request.notes}</dd>
					</div>
				) : null}
			</dl>
			{request.images.length ? (
				<ul className="photo-strip" aria-label={t('request.images')}>
					{request.images.map((uploadId, index) => (
						<li key={uploadId}>
							<a href={uploadUrl(uploadId)} target="_blank" rel="noreferrer">
								<img src={uploadUrl(uploadId, 'thumb')} alt={t('request.imageAlt', { number: index + 1 })} loading="lazy" width={240} height={180} />
							</a>
						</li>
					))}
				</ul>
			) : null}
		</div>
	)
}
