import { useTranslation } from '~/i18n/translation'
import { type FilterOptions, type ReferenceOption, type WorkshopListQuery } from '~/domain/directory/workshops'
import { SelectField } from './forms'

/** City, service and car brand: the filters of the list and of the home page's search. */
export function FilterSelects({
	query,
	options,
}: {
	query: Pick<WorkshopListQuery, 'city' | 'service' | 'brand'>
	options: FilterOptions
}) {
	const { t } = useTranslation('public')
	const asOptions = (list: ReferenceOption[]) => list.map((item) => ({ value: item.code, label: item.name }))
	return (
		<>
			<SelectField label={t('search.city')} placeholder={t('search.anyCity')} options={asOptions(options.cities)} selectProps={{ name: 'city', defaultValue: query.city ?? '' }} />
			<SelectField
				label={t('search.service')}
				placeholder={t('search.anyService')}
				options={asOptions(options.services)}
				selectProps={{ name: 'service', defaultValue: query.service ?? '' }}
			/>
			<SelectField label={t('search.brand')} placeholder={t('search.anyBrand')} options={asOptions(options.brands)} selectProps={{ name: 'brand', defaultValue: query.brand ?? '' }} />
		</>
	)
}
