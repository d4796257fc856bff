import { type County } from '../../domain/directory/counties'
/** Reference lists of the demo data: [code, Estonian, English, Russian]. */
export type ReferenceRow = readonly [code: string, et: string, en: string, ru: string]

export const demoServices: ReferenceRow[] = [
	['maintenance', 'Hooldus', 'Scheduled maintenance', 'Плановое ТО'],
	['oil-change', 'Õlivahetus', 'Oil change', 'Замена масла'],
	['diagnostics', 'Diagnostika', 'Diagnostics', 'Диагностика'],
	['brakes', 'Pidurite remont', 'Brake repair', 'Ремонт тормозов'],
	['tyres', 'Rehvivahetus ja -hotell', 'Tyre change and storage', 'Шиномонтаж и хранение шин'],
	['suspension', 'Veermiku remont', 'Suspension repair', 'Ремонт подвески'],
	['wheel-alignment', 'Sillastend', 'Wheel alignment', 'Развал-схождение'],
	['engine', 'Mootoriremont', 'Engine repair', 'Ремонт двигателя'],
	['timing-belt', 'Hammasrihma vahetus', 'Timing belt replacement', 'Замена ремня ГРМ'],
	['transmission', 'Käigukasti remont', 'Gearbox repair', 'Ремонт коробки передач'],
	['air-conditioning', 'Kliimahooldus', 'Air conditioning service', 'Обслуживание кондиционера'],
	['electrical', 'Autoelektrik', 'Auto electrics', 'Автоэлектрика'],
	['bodywork', 'Kereremont', 'Bodywork', 'Кузовной ремонт'],
	['painting', 'Värvimine', 'Paintwork', 'Покраска'],
	['exhaust', 'Summuti remont', 'Exhaust repair', 'Ремонт глушителя'],
	['glass', 'Klaasitööd', 'Windscreen and glass', 'Замена стёкол'],
	['inspection-prep', 'Ülevaatuseks ettevalmistus', 'Inspection preparation', 'Подготовка к техосмотру'],
	['ev-service', 'Elektriauto hooldus', 'Electric vehicle service', 'Обслуживание электромобилей'],
	['detailing', 'Pesu ja puhastus', 'Washing and detailing', 'Мойка и детейлинг'],
]

export const demoCarBrands: ReferenceRow[] = [
	'Audi',
	'BMW',
	'Citroën',
	'Dacia',
	'Ford',
	'Honda',
	'Hyundai',
	'Kia',
	'Lexus',
	'Mazda',
	'Mercedes-Benz',
	'Mitsubishi',
	'Nissan',
	'Opel',
	'Peugeot',
	'Renault',
	'SEAT',
	'Škoda',
	'Subaru',
	'Tesla',
	'Toyota',
	'Volkswagen',
	'Volvo',
].map((name) => [slugify(name), name, name, name] as const)

export const demoSpareParts: ReferenceRow[] = [
	['original', 'Originaalvaruosad', 'Original (OEM) parts', 'Оригинальные запчасти'],
	['aftermarket', 'Kvaliteetsed asendusvaruosad', 'Quality aftermarket parts', 'Качественные аналоги'],
	['used', 'Kasutatud varuosad', 'Used parts', 'Б/у запчасти'],
	['own-parts', 'Kliendi varuosad', "Customer's own parts", 'Запчасти клиента'],
	['tyres-stock', 'Rehvid laost', 'Tyres in stock', 'Шины в наличии'],
]

export const demoPaymentMethods: ReferenceRow[] = [
	['card', 'Pangakaart', 'Card', 'Банковская карта'],
	['cash', 'Sularaha', 'Cash', 'Наличные'],
	['bank-transfer', 'Pangaülekanne', 'Bank transfer', 'Банковский перевод'],
	['invoice', 'Arve ettevõttele', 'Invoice for companies', 'Счёт для фирм'],
	['hire-purchase', 'Järelmaks', 'Hire purchase', 'Рассрочка'],
]

export const demoCities: ReferenceRow[] = [
	['tallinn', 'Tallinn', 'Tallinn', 'Таллин'],
	['tartu', 'Tartu', 'Tartu', 'Тарту'],
	['narva', 'Narva', 'Narva', 'Нарва'],
	['parnu', 'Pärnu', 'Pärnu', 'Пярну'],
	['kohtla-jarve', 'Kohtla-Järve', 'Kohtla-Järve', 'Кохтла-Ярве'],
	['viljandi', 'Viljandi', 'Viljandi', 'Вильянди'],
	['rakvere', 'Rakvere', 'Rakvere', 'Раквере'],
	['maardu', 'Maardu', 'Maardu', 'Маарду'],
	['kuressaare', 'Kuressaare', 'Kuressaare', 'Курессааре'],
	['haapsalu', 'Haapsalu', 'Haapsalu', 'Хаапсалу'],
	['johvi', 'Jõhvi', 'Jõhvi', 'Йыхви'],
	['voru', 'Võru', 'Võru', 'Выру'],
	['paide', 'Paide', 'Paide', 'Пайде'],
]

/** The county of each demo city (issue 35: the usual price of a service is counted by county). */
export const demoCityCounties: Record<string, County> = {
	tallinn: 'harju',
	tartu: 'tartu',
	narva: 'ida-viru',
	parnu: 'parnu',
	'kohtla-jarve': 'ida-viru',
	viljandi: 'viljandi',
	rakvere: 'laane-viru',
	maardu: 'harju',
	kuressaare: 'saare',
	haapsalu: 'laane',
	johvi: 'ida-viru',
	voru: 'voru',
	paide: 'jarva',
}
/** The five lists by the table each fills, in the order they are loaded. */
export const demoReferenceLists = {
	services: demoServices,
	car_brands: demoCarBrands,
	spare_parts: demoSpareParts,
	payment_methods: demoPaymentMethods,
	cities: demoCities,
} as const

function slugify(name: string) {
	return name
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/(^-|-$)/g, '')
}
