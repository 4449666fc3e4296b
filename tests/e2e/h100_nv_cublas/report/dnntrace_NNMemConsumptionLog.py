active = [14336,4096,]
active_breakdown = [(4096,10240,0),(0,4096,0),]
total = [33569792,33569792,]
global_weight = 33569792
input_size = 1024
