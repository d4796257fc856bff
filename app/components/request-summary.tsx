import { useTranslation } from '~/i18n/translation'
import { type RequestDetail } from '~/domain/service-flow/requests'
import { distanceText } from '~/domain/service-flow/vehicle-kinds'
import { useLanguage } from '~/i18n/use-language'
import { formatDateTime } from '~/utils/format'
import { Fact } from './panel'
import { PhotoStrip } from './photo-strip'

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
						{[vehicle.year, distanceText(t, vehicle.mileage, vehicle.odometerUnit), t(`vehicle.transmissions.${vehicle.transmission}`), vehicle.fuelType ? t(`vehicle.fuelTypes.${vehicle.fuelType}`) : null]
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
			<PhotoStrip images={request.images} label={t('request.images')} altFor={(index) => t('request.imageAlt', { number: index + 1 })} />
		</div>
	)
}
