import type { FulfillmentType } from '#shared/schemas/locations.ts';

/**
 * The demo's fixed data: an app, two merchants, their locations in five metro areas (real-ish
 * addresses and coordinates, so distance ordering and delivery areas look right on a map) and two users.
 * Secrets here are for the local demo only.
 */

export const DEMO_APP = { name: 'Demo App' };

export const DEMO_MERCHANT = {
  name: 'Beacon Street Coffee',
  username: 'demo-merchant',
  password: 'demo merchant password',
  descriptionHtml: '<p>Coffee, pastries and breakfast sandwiches, roasted in Boston.</p>',
};

export const DEMO_OTHER_MERCHANT = {
  name: 'Golden Gate Pizza',
  username: 'other-merchant',
  password: 'other merchant password',
  descriptionHtml: '<p>Sourdough pizza by the slice and the pie.</p>',
};

export const DEMO_USERS = [
  { email: 'demo@example.com', first_name: 'Dana', last_name: 'Demo', password: 'demo user password', has_card: true },
  { email: 'second@example.com', first_name: 'Sam', last_name: 'Second', password: 'second user password', has_card: false },
] as const;

export interface DemoLocation {
  owner: 'merchant' | 'other_merchant';
  name: string;
  street_address: string;
  locality: string;
  region: string;
  postal_code: string;
  latitude: number;
  longitude: number;
  time_zone: string;
  fulfillment_types: FulfillmentType[];
  delivery_radius_m?: number;
  /** parseHoursSpec form; '' posts no hours. */
  hours: string;
  categories: number[];
  yelp_url?: string;
}

const COFFEE_HOURS = 'mon-fri 06:30-19:00; sat,sun 08:00-17:00';
const PIZZA_HOURS = 'mon-thu 11:00-22:00; fri,sat 11:00-02:00; sun 12:00-21:00';
const COFFEE = [4, 5];
const PIZZA = [1, 7];

const boston = { region: 'MA', time_zone: 'America/New_York' };
const newYork = { region: 'NY', time_zone: 'America/New_York' };
const california = { region: 'CA', time_zone: 'America/Los_Angeles' };
const chicago = { locality: 'Chicago', region: 'IL', time_zone: 'America/Chicago' };

export const DEMO_LOCATIONS: readonly DemoLocation[] = [
  // Beacon Street Coffee: Boston area and New York
  { owner: 'merchant', name: 'Downtown Crossing', street_address: '425 Washington St', locality: 'Boston', postal_code: '02108', latitude: 42.3555, longitude: -71.0605, ...boston, fulfillment_types: ['in_store', 'pickup'], hours: COFFEE_HOURS, categories: COFFEE, yelp_url: 'https://www.yelp.com/biz/beacon-street-coffee-boston' },
  { owner: 'merchant', name: 'Back Bay', street_address: '500 Boylston St', locality: 'Boston', postal_code: '02116', latitude: 42.3503, longitude: -71.0737, ...boston, fulfillment_types: ['in_store', 'pickup', 'delivery'], delivery_radius_m: 3000, hours: COFFEE_HOURS, categories: COFFEE },
  { owner: 'merchant', name: 'Seaport', street_address: '100 Northern Ave', locality: 'Boston', postal_code: '02210', latitude: 42.3519, longitude: -71.0446, ...boston, fulfillment_types: ['in_store'], hours: COFFEE_HOURS, categories: COFFEE },
  { owner: 'merchant', name: 'Fenway', street_address: '82 Brookline Ave', locality: 'Boston', postal_code: '02215', latitude: 42.3467, longitude: -71.0972, ...boston, fulfillment_types: ['in_store', 'pickup'], hours: COFFEE_HOURS, categories: COFFEE },
  { owner: 'merchant', name: 'North End', street_address: '300 Hanover St', locality: 'Boston', postal_code: '02113', latitude: 42.3647, longitude: -71.0542, ...boston, fulfillment_types: ['in_store'], hours: 'daily 07:00-22:00', categories: COFFEE },
  { owner: 'merchant', name: 'Harvard Square', street_address: '1350 Massachusetts Ave', locality: 'Cambridge', postal_code: '02138', latitude: 42.3736, longitude: -71.119, ...boston, fulfillment_types: ['in_store', 'pickup', 'delivery'], delivery_radius_m: 2500, hours: COFFEE_HOURS, categories: COFFEE },
  { owner: 'merchant', name: 'Kendall Square Kitchen', street_address: '300 Main St', locality: 'Cambridge', postal_code: '02142', latitude: 42.3625, longitude: -71.0862, ...boston, fulfillment_types: ['pickup', 'delivery'], delivery_radius_m: 4000, hours: 'mon-fri 07:00-15:00', categories: COFFEE },
  { owner: 'merchant', name: 'Central Square', street_address: '640 Massachusetts Ave', locality: 'Cambridge', postal_code: '02139', latitude: 42.3655, longitude: -71.1037, ...boston, fulfillment_types: ['in_store'], hours: COFFEE_HOURS, categories: COFFEE },
  { owner: 'merchant', name: 'Porter Square', street_address: '1815 Massachusetts Ave', locality: 'Cambridge', postal_code: '02140', latitude: 42.3884, longitude: -71.1191, ...boston, fulfillment_types: ['in_store', 'pickup'], hours: COFFEE_HOURS, categories: COFFEE },
  { owner: 'merchant', name: 'Davis Square', street_address: '240 Elm St', locality: 'Somerville', postal_code: '02144', latitude: 42.3967, longitude: -71.1223, ...boston, fulfillment_types: ['in_store'], hours: COFFEE_HOURS, categories: COFFEE },
  { owner: 'merchant', name: 'Coolidge Corner', street_address: '1300 Beacon St', locality: 'Brookline', postal_code: '02446', latitude: 42.3421, longitude: -71.1212, ...boston, fulfillment_types: ['in_store', 'delivery'], delivery_radius_m: 3000, hours: COFFEE_HOURS, categories: COFFEE },
  { owner: 'merchant', name: 'Times Square', street_address: '1500 Broadway', locality: 'New York', postal_code: '10036', latitude: 40.758, longitude: -73.9855, ...newYork, fulfillment_types: ['in_store', 'pickup'], hours: 'daily 00:00-24:00', categories: COFFEE },
  { owner: 'merchant', name: 'Union Square', street_address: '33 Union Sq W', locality: 'New York', postal_code: '10003', latitude: 40.7359, longitude: -73.9911, ...newYork, fulfillment_types: ['in_store', 'pickup', 'delivery'], delivery_radius_m: 2000, hours: COFFEE_HOURS, categories: COFFEE },
  { owner: 'merchant', name: 'Wall Street', street_address: '60 Wall St', locality: 'New York', postal_code: '10005', latitude: 40.7064, longitude: -74.0094, ...newYork, fulfillment_types: ['in_store'], hours: 'mon-fri 06:00-18:00', categories: COFFEE },
  { owner: 'merchant', name: 'DUMBO', street_address: '55 Water St', locality: 'Brooklyn', postal_code: '11201', latitude: 40.7033, longitude: -73.9881, ...newYork, fulfillment_types: ['in_store', 'pickup'], hours: COFFEE_HOURS, categories: COFFEE },

  // Golden Gate Pizza: San Francisco Bay, Chicago and New York
  { owner: 'other_merchant', name: 'Union Square SF', street_address: '333 Post St', locality: 'San Francisco', postal_code: '94108', latitude: 37.788, longitude: -122.4075, ...california, fulfillment_types: ['in_store', 'pickup'], hours: PIZZA_HOURS, categories: PIZZA, yelp_url: 'https://www.yelp.com/biz/golden-gate-pizza-san-francisco' },
  { owner: 'other_merchant', name: 'Mission', street_address: '2300 Mission St', locality: 'San Francisco', postal_code: '94110', latitude: 37.7599, longitude: -122.4186, ...california, fulfillment_types: ['in_store', 'delivery'], delivery_radius_m: 3000, hours: PIZZA_HOURS, categories: PIZZA },
  { owner: 'other_merchant', name: 'Financial District', street_address: '101 California St', locality: 'San Francisco', postal_code: '94111', latitude: 37.793, longitude: -122.3984, ...california, fulfillment_types: ['pickup', 'delivery'], delivery_radius_m: 2500, hours: '', categories: PIZZA },
  { owner: 'other_merchant', name: 'Hayes Valley', street_address: '500 Hayes St', locality: 'San Francisco', postal_code: '94102', latitude: 37.7763, longitude: -122.4241, ...california, fulfillment_types: ['in_store'], hours: PIZZA_HOURS, categories: PIZZA },
  { owner: 'other_merchant', name: 'SoMa', street_address: '800 Howard St', locality: 'San Francisco', postal_code: '94103', latitude: 37.7815, longitude: -122.404, ...california, fulfillment_types: ['in_store', 'pickup'], hours: PIZZA_HOURS, categories: PIZZA },
  { owner: 'other_merchant', name: 'Uptown Oakland', street_address: '410 14th St', locality: 'Oakland', postal_code: '94612', latitude: 37.8044, longitude: -122.2712, ...california, fulfillment_types: ['in_store', 'delivery'], delivery_radius_m: 5000, hours: PIZZA_HOURS, categories: PIZZA },
  { owner: 'other_merchant', name: 'The Loop', street_address: '100 W Randolph St', postal_code: '60601', latitude: 41.8846, longitude: -87.6323, ...chicago, fulfillment_types: ['in_store', 'pickup'], hours: PIZZA_HOURS, categories: PIZZA },
  { owner: 'other_merchant', name: 'River North', street_address: '445 N Clark St', postal_code: '60654', latitude: 41.8904, longitude: -87.6311, ...chicago, fulfillment_types: ['in_store', 'delivery'], delivery_radius_m: 3000, hours: PIZZA_HOURS, categories: PIZZA },
  { owner: 'other_merchant', name: 'Wicker Park', street_address: '1600 N Milwaukee Ave', postal_code: '60647', latitude: 41.9103, longitude: -87.6773, ...chicago, fulfillment_types: ['in_store'], hours: PIZZA_HOURS, categories: PIZZA },
  { owner: 'other_merchant', name: 'Lincoln Park', street_address: '2400 N Clark St', postal_code: '60614', latitude: 41.9254, longitude: -87.6405, ...chicago, fulfillment_types: ['pickup'], hours: PIZZA_HOURS, categories: PIZZA },
  { owner: 'other_merchant', name: 'Hyde Park', street_address: '1500 E 53rd St', postal_code: '60615', latitude: 41.7995, longitude: -87.5887, ...chicago, fulfillment_types: ['in_store'], hours: PIZZA_HOURS, categories: PIZZA },
  { owner: 'other_merchant', name: 'Williamsburg', street_address: '200 Bedford Ave', locality: 'Brooklyn', postal_code: '11249', latitude: 40.7174, longitude: -73.9571, ...newYork, fulfillment_types: ['in_store', 'delivery'], delivery_radius_m: 2500, hours: PIZZA_HOURS, categories: PIZZA },
  { owner: 'other_merchant', name: 'Upper West Side', street_address: '2300 Broadway', locality: 'New York', postal_code: '10024', latitude: 40.787, longitude: -73.9754, ...newYork, fulfillment_types: ['in_store', 'pickup'], hours: PIZZA_HOURS, categories: PIZZA },
];

/** Points the walkthrough uses. */
export const DEMO_PLACES = {
  harvardSquare: { lat: 42.3736, lng: -71.119 },
  kendallSquare: { lat: 42.3629, lng: -71.0901 },
};
