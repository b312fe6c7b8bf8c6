/** What a card field needs to know of the payment gateway; the server page passes it to the islands. */
export interface CardConfig {
  gateway: 'test' | 'square';
  applicationId: string | null;
  locationId: string | null;
  environment: 'sandbox' | 'production';
}
