from django.urls import path

from campaign import api, auction_api, auction_views, captain_api, captain_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("campaigns/<slug:slug>/", views.campaign_detail, name="campaign_detail"),
    path("campaigns/<slug:slug>/invitations/", views.invitation_create_view, name="invitation_create"),
    path(
        "campaigns/<slug:slug>/invitations/<int:pk>/revoke/",
        views.invitation_revoke_view,
        name="invitation_revoke",
    ),
    path("campaigns/<slug:slug>/captains/new/", captain_views.captain_found_view, name="captain_found"),
    path("campaigns/<slug:slug>/standings/", captain_views.campaign_standings, name="campaign_standings"),
    path("captains/<int:pk>/", captain_views.captain_detail, name="captain_detail"),
    path("captains/<int:pk>/adjust/", captain_views.captain_adjust_view, name="captain_adjust"),
    path("captains/<int:pk>/status/", captain_views.captain_status_view, name="captain_status"),
    path("join/<str:token>/", views.join, name="campaign_join"),
    path("notifications/", views.notification_list, name="notification_list"),
    path("notifications/read/", views.notification_read, name="notification_read"),
    path("api/me/", api.MeApi.as_view(), name="api_me"),
    path("api/campaigns/", api.CampaignListApi.as_view(), name="api_campaign_list"),
    path("api/campaigns/<slug:slug>/", api.CampaignDetailApi.as_view(), name="api_campaign_detail"),
    path("api/campaigns/<slug:slug>/captains/", captain_api.CaptainListApi.as_view(), name="api_captain_list"),
    path("api/campaigns/<slug:slug>/standings/", captain_api.StandingsApi.as_view(), name="api_standings"),
    path("api/captains/<int:captain_id>/", captain_api.CaptainDetailApi.as_view(), name="api_captain_detail"),
    path("api/captains/<int:captain_id>/ledger/", captain_api.CaptainLedgerApi.as_view(), name="api_captain_ledger"),
    path("api/captains/<int:captain_id>/adjust/", captain_api.CaptainAdjustApi.as_view(), name="api_captain_adjust"),
    path("api/captains/<int:captain_id>/status/", captain_api.CaptainStatusApi.as_view(), name="api_captain_status"),
    # --- the auction room (pages and API) ---
    path("campaigns/<slug:slug>/auctions/", auction_views.auction_room, name="auction_room"),
    path("campaigns/<slug:slug>/auctions/land/", auction_views.auction_land_view, name="auction_land"),
    path("campaigns/<slug:slug>/auctions/<int:pk>/live/", auction_views.auction_live, name="auction_live"),
    path("campaigns/<slug:slug>/auctions/<int:pk>/bid/", auction_views.auction_bid_view, name="auction_bid"),
    path("campaigns/<slug:slug>/auctions/<int:pk>/buy/", auction_views.auction_buy_view, name="auction_buy"),
    path("api/campaigns/<slug:slug>/auctions/", auction_api.AuctionListApi.as_view(), name="api_auction_list"),
    path("api/auctions/<int:auction_id>/", auction_api.AuctionDetailApi.as_view(), name="api_auction_detail"),
    path("api/auctions/<int:auction_id>/bids/", auction_api.AuctionBidApi.as_view(), name="api_auction_bid"),
    path("api/auctions/<int:auction_id>/buy/", auction_api.AuctionBuyApi.as_view(), name="api_auction_buy"),
]
