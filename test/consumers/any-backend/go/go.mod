module verify-widgets/site

go 1.19
